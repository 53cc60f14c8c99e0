// Kafana starter bot in JavaScript: answers every Act with a random legal action id.
//
// The referee installs the npm packages (the manifest's build) and starts `node random_bot.js` (see bot.toml) with
// KAFANA_BOT_ADDRESS set to the address to listen on: "unix:/path/to/socket" or "127.0.0.1:PORT". Everything about
// the protocol is in proto/kafana/v1/bot.proto (a link to the repository's copy; `cp -rL` follows it).
"use strict";

const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTO = path.join(__dirname, "proto", "kafana", "v1", "bot.proto");
const GAMES = ["durak", "gapa", "gaps", "gjul-bara", "tabla", "tabla-match", "tapa"];

// The options the generated TypeScript types assume (npm run types; npm run check type-checks this file with them).
const definition = protoLoader.loadSync(PROTO, { keepCase: true, longs: Number, enums: Number, defaults: true,
  oneofs: true });
const kafana = /** @type {import("./types/bot").ProtoGrpcType} */ (
  /** @type {unknown} */ (grpc.loadPackageDefinition(definition))).kafana.v1;

const address = process.env.KAFANA_BOT_ADDRESS;
if (!address) {
  console.error("KAFANA_BOT_ADDRESS is not set: bots are started by the referee (referee play ...)");
  process.exit(2);
}

/**
 * A small seeded generator (mulberry32) so that equal requests get equal answers.
 * @param {string} text
 * @returns {() => number}
 */
function seeded(text) {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** @type {import("./types/kafana/v1/Bot").BotHandlers} */
const handlers = {
  Hello: (call, callback) =>
    callback(null, { name: "random-js", version: "1.0", author: "Kafana", language: "javascript", games: GAMES }),
  Act: (call, callback) => {
    const request = call.request;
    const random = seeded(`${request.match_id}/${request.game_number}/${request.seat}/${request.decision}`);
    const legal = request.legal_actions;
    const choice = legal[Math.floor(random() * legal.length)];
    callback(null, { action_id: choice.id, comment: "" });
  },
  Notify: (call, callback) => callback(null, {}),
};

const server = new grpc.Server();
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
