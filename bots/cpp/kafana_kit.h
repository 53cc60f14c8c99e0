// The Kafana kit for C++: serve a decision function as a bot, so that a bot is only its decisions.
//
//   kafana_kit::Info info{"first", {"tapa"}};
//   return kafana_kit::Serve(info, [](const kafana::v1::ActRequest& request) {
//     kafana::v1::ActResponse response;
//     response.set_action_id(request.legal_actions(0).id());
//     return response;
//   });
//
// The referee starts the bot with KAFANA_BOT_ADDRESS set to where it must listen ("unix:/path" or
// "127.0.0.1:PORT"); Serve listens there, answers Hello from the Info, passes every Act to the decision and every
// Notify to the optional listener (whether they come as calls or on the Session stream, which it serves and says
// so in Hello), and exits when the referee (its parent) is gone.
#ifndef KAFANA_KIT_H_
#define KAFANA_KIT_H_

#include <functional>
#include <string>
#include <vector>

#include "kafana/v1/bot.pb.h"

namespace kafana_kit {

// Who the bot is: its answer to Hello.
struct Info {
  std::string name;
  std::vector<std::string> games;  // the game ids it plays; the referee seats it in no other
  std::string version = "1.0";
  std::string author;
  // False when the bot reads only each legal action's id and notation: the requests then leave each action's
  // structured detail out.
  bool action_detail = true;
};

// The answer to one decision: its action_id must be the id of one of the request's legal actions.
using Decide = std::function<kafana::v1::ActResponse(const kafana::v1::ActRequest&)>;
// Told when a game or a match ends.
using OnEvent = std::function<void(const kafana::v1::Notification&)>;

// Serves `decide` as the bot `info` at $KAFANA_BOT_ADDRESS until the referee stops it; returns the process's exit
// code (2: no address, 1: cannot listen).
int Serve(const Info& info, Decide decide, OnEvent on_event = nullptr);

}  // namespace kafana_kit

#endif  // KAFANA_KIT_H_
