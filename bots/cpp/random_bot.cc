// Kafana starter bot in C++: answers every decision with a random legal action, seeded by the decision so that
// equal requests get equal answers. Write your own decision in Choose; the view (request.backgammon(), ...) and
// each action's detail are described in proto/kafana/v1/bot.proto. kafana_kit.{h,cc} does the serving; the
// referee starts `build/random_bot` (see bot.toml; CMakeLists.txt builds it).

#include <functional>
#include <random>
#include <string>

#include "kafana_kit.h"

namespace {

kafana::v1::ActResponse Choose(const kafana::v1::ActRequest& request) {
  std::string key = request.match_id() + "/" + std::to_string(request.game_number()) + "/" +
                    std::to_string(request.seat()) + "/" + std::to_string(request.decision());
  std::mt19937_64 rng(std::hash<std::string>{}(key));
  std::uniform_int_distribution<int> pick(0, request.legal_actions_size() - 1);
  kafana::v1::ActResponse response;
  response.set_action_id(request.legal_actions(pick(rng)).id());
  return response;
}

}  // namespace

int main() {
  kafana_kit::Info info{"random-cpp", {"durak", "gapa", "gaps", "gjul-bara", "tabla", "tabla-match", "tapa"}};
  info.author = "Kafana";
  info.action_detail = false;  // reads only the ids
  return kafana_kit::Serve(info, Choose);
}
