// Kafana starter bot in JavaScript: answers every decision with a random legal action, seeded by the decision so
// that equal requests get equal answers. Write your own decision in `choose`; the view (request.backgammon,
// request.durak, ...) and each action's detail are described in proto/kafana/v1/bot.proto. kit.js does the
// serving; the referee installs the npm packages (the manifest's build) and starts `node random_bot.js`.
"use strict";

const { serve } = require("./kit");

const GAMES = ["durak", "gapa", "gaps", "gjul-bara", "tabla", "tabla-match", "tapa"];

/**
 * A small seeded generator (mulberry32).
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

/**
 * @param {import("./kit").ActRequest} request
 * @returns {import("./kit").ActResponse}
 */
function choose(request) {
  const random = seeded(`${request.match_id}/${request.game_number}/${request.seat}/${request.decision}`);
  const legal = request.legal_actions;
  const choice = legal[Math.floor(random() * legal.length)];
  return { action_id: choice.id, comment: "" };
}

// Reads only the ids: the requests come without each action's structured detail.
serve({ name: "random-js", version: "1.0", author: "Kafana", games: GAMES, actionDetail: false }, choose);
