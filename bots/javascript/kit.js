// The Kafana kit for JavaScript: serve a decision function as a bot, so that a bot is only its decisions.
//
//   const { serve } = require("./kit");
//   serve({ name: "first", games: ["tapa"] }, (request) => ({ action_id: request.legal_actions[0].id }));
//
// The referee starts the bot with KAFANA_BOT_ADDRESS set to where it must listen ("unix:/path" or
// "127.0.0.1:PORT"); serve listens there, answers Hello from the info, passes every Act to decide and every
// Notify to onEvent (whether they come as calls or on the Session stream, which it serves and says so in Hello),
// and exits when the referee (its parent) is gone. The request's fields are those of
// proto/kafana/v1/bot.proto under their proto names (the loader's keepCase), as the generated types say.
"use strict";

const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTO = path.join(__dirname, "proto", "kafana", "v1", "bot.proto");

/** @typedef {import("./types/kafana/v1/ActRequest").ActRequest__Output} ActRequest */
/** @typedef {import("./types/kafana/v1/ActResponse").ActResponse} ActResponse */
/** @typedef {import("./types/kafana/v1/Notification").Notification__Output} Notification */

/**
 * Who the bot is (its answer to Hello). actionDetail false: the bot reads only each legal action's id and
 * notation, and the requests leave each action's structured detail out.
 * @typedef {{ name: string, games: string[], version?: string, author?: string, actionDetail?: boolean }} Info
 */

/**
 * Serve decide as the bot described by info, at $KAFANA_BOT_ADDRESS, until the referee stops it.
 * @param {Info} info
 * @param {(request: ActRequest) => ActResponse} decide the answer to one decision: the id of a legal action
 * @param {(event: Notification) => void} [onEvent] told when a game or a match ends
 */
function serve(info, decide, onEvent) {
  const address = process.env.KAFANA_BOT_ADDRESS;
  if (!address) {
    console.error("KAFANA_BOT_ADDRESS is not set: bots are started by the referee (referee play ...)");
    process.exit(2);
  }
  // The options the generated TypeScript types assume (npm run types; npm run check type-checks with them).
  const definition = protoLoader.loadSync(PROTO, { keepCase: true, longs: Number, enums: Number, defaults: true,
    oneofs: true });
  const kafana = /** @type {import("./types/bot").ProtoGrpcType} */ (
    /** @type {unknown} */ (grpc.loadPackageDefinition(definition))).kafana.v1;
  const hello = { name: info.name, version: info.version ?? "1.0", author: info.author ?? "",
    language: "javascript", games: info.games, without_action_detail: info.actionDetail === false, session: true };
  const noLegalActions = { code: grpc.status.INVALID_ARGUMENT, details: "no legal actions" };

  /** @type {import("./types/kafana/v1/Bot").BotHandlers} */
  const handlers = {
    Hello: (call, callback) => callback(null, hello),
    Act: (call, callback) => {
      if (call.request.legal_actions.length === 0) {
        callback(noLegalActions);
        return;
      }
      callback(null, decide(call.request));
    },
    Notify: (call, callback) => {
      if (onEvent) onEvent(call.request);
      callback(null, {});
    },
    // Each request of the referee's stream, answered in order as Act and Notify answer their calls.
    Session: (call) => {
      call.on("data", (request) => {
        if (request.act) {
          if (request.act.legal_actions.length === 0) {
            call.emit("error", noLegalActions);
            return;
          }
          call.write({ act: decide(request.act) });
        } else {
          if (onEvent && request.notify) onEvent(request.notify);
          call.write({ notified: {} });
        }
      });
      call.on("end", () => call.end());
    },
  };
  const server = new grpc.Server({ "grpc.max_receive_message_length": 64 * 1024 * 1024 });
  server.addService(kafana.Bot.service, handlers);
  server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error) => {
    if (error) {
      console.error(`cannot listen on ${address}: ${error.message}`);
      process.exit(1);
    }
  });

  // Exit when the referee (our parent) is gone, even if it was killed.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(0);
  }, 500).unref();
}

module.exports = { serve };
