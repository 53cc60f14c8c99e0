// Kafana starter bot in C++: answers every Act with a random legal action id.
//
// The referee starts `build/random_bot` (see bot.toml; CMakeLists.txt builds it) with KAFANA_BOT_ADDRESS set to
// the address to listen on: "unix:/path/to/socket" or "127.0.0.1:PORT". Everything about the protocol is in
// proto/kafana/v1/bot.proto; the view (request.backgammon()) and each action's detail are there for a real bot.

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include <unistd.h>

#include <grpcpp/grpcpp.h>

#include "kafana/v1/bot.grpc.pb.h"

namespace {

const char* const kGames[] = {"durak", "gapa", "gaps", "gjul-bara", "tabla", "tabla-match", "tapa"};

class RandomBot final : public kafana::v1::Bot::Service {
  grpc::Status Hello(grpc::ServerContext*, const kafana::v1::HelloRequest*,
                     kafana::v1::HelloResponse* response) override {
    response->set_name("random-cpp");
    response->set_version("1.0");
    response->set_author("Kafana");
    response->set_language("c++");
    for (const char* game : kGames) response->add_games(game);
    return grpc::Status::OK;
  }

  grpc::Status Act(grpc::ServerContext*, const kafana::v1::ActRequest* request,
                   kafana::v1::ActResponse* response) override {
    if (request->legal_actions_size() == 0) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "no legal actions");
    }
    // Seeded by the decision, so that equal requests get equal answers.
    std::string key = request->match_id() + "/" + std::to_string(request->game_number()) + "/" +
                      std::to_string(request->seat()) + "/" + std::to_string(request->decision());
    std::mt19937_64 rng(std::hash<std::string>{}(key));
    std::uniform_int_distribution<int> pick(0, request->legal_actions_size() - 1);
    response->set_action_id(request->legal_actions(pick(rng)).id());
    return grpc::Status::OK;
  }

  grpc::Status Notify(grpc::ServerContext*, const kafana::v1::Notification*,
                      kafana::v1::NotifyResponse*) override {
    return grpc::Status::OK;
  }
};

// Exit when the referee (our parent) is gone, even if it was killed.
void WatchParent() {
  const pid_t parent = getppid();
  std::thread([parent] {
    while (getppid() == parent) std::this_thread::sleep_for(std::chrono::milliseconds(500));
    std::_Exit(0);
  }).detach();
}

}  // namespace

int main() {
  const char* address = std::getenv("KAFANA_BOT_ADDRESS");
  if (address == nullptr || *address == '\0') {
    std::fprintf(stderr, "KAFANA_BOT_ADDRESS is not set: bots are started by the referee (referee play ...)\n");
    return 2;
  }
  RandomBot service;
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials());
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) {
    std::fprintf(stderr, "cannot listen on %s\n", address);
    return 1;
  }
  WatchParent();
  server->Wait();
  return 0;
}
