// The Kafana kit for C++ (see kafana_kit.h).
#include "kafana_kit.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <utility>

#include <unistd.h>

#include <grpcpp/grpcpp.h>

#include "kafana/v1/bot.grpc.pb.h"

namespace kafana_kit {
namespace {

class Service final : public kafana::v1::Bot::Service {
 public:
  Service(kafana::v1::HelloResponse hello, Decide decide, OnEvent on_event)
      : hello_(std::move(hello)), decide_(std::move(decide)), on_event_(std::move(on_event)) {}

  grpc::Status Hello(grpc::ServerContext*, const kafana::v1::HelloRequest*,
                     kafana::v1::HelloResponse* response) override {
    *response = hello_;
    return grpc::Status::OK;
  }

  grpc::Status Act(grpc::ServerContext*, const kafana::v1::ActRequest* request,
                   kafana::v1::ActResponse* response) override {
    if (request->legal_actions_size() == 0) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "no legal actions");
    }
    *response = decide_(*request);
    return grpc::Status::OK;
  }

  grpc::Status Notify(grpc::ServerContext*, const kafana::v1::Notification* request,
                      kafana::v1::NotifyResponse*) override {
    if (on_event_) on_event_(*request);
    return grpc::Status::OK;
  }

  // Each request of the referee's stream, answered in order as Act and Notify answer their calls.
  grpc::Status Session(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<kafana::v1::SessionResponse, kafana::v1::SessionRequest>* stream) override {
    kafana::v1::SessionRequest request;
    while (stream->Read(&request)) {
      kafana::v1::SessionResponse response;
      if (request.has_act()) {
        grpc::Status status = Act(context, &request.act(), response.mutable_act());
        if (!status.ok()) return status;
      } else {
        Notify(context, &request.notify(), response.mutable_notified());
      }
      if (!stream->Write(response)) break;
    }
    return grpc::Status::OK;
  }

 private:
  kafana::v1::HelloResponse hello_;
  Decide decide_;
  OnEvent on_event_;
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

int Serve(const Info& info, Decide decide, OnEvent on_event) {
  const char* address = std::getenv("KAFANA_BOT_ADDRESS");
  if (address == nullptr || *address == '\0') {
    std::fprintf(stderr, "KAFANA_BOT_ADDRESS is not set: bots are started by the referee (referee play ...)\n");
    return 2;
  }
  kafana::v1::HelloResponse hello;
  hello.set_name(info.name);
  hello.set_version(info.version);
  hello.set_author(info.author);
  hello.set_language("c++");
  for (const std::string& game : info.games) hello.add_games(game);
  hello.set_without_action_detail(!info.action_detail);
  hello.set_session(true);
  Service service(std::move(hello), std::move(decide), std::move(on_event));
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials());
  builder.SetMaxReceiveMessageSize(64 * 1024 * 1024);
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

}  // namespace kafana_kit
