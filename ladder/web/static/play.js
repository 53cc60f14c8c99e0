// Kafana: a person's seat. The referee's messages come as server-sent events (/play/TOKEN/events): the seat's
// view (drawn as the replay viewer draws it) and, when it is the seat's move, the legal actions, each with the
// parts a person clicks (its `steps`, from the game's registration). A click on the board adds the part clicked
// to the selection; the actions that still fit are listed, and an action is played when the selection makes it
// whole and no other fits. Any listed action can be played by its button. This page computes no rule: what fits
// is a comparison of names.
"use strict";

(() => {
  const base = location.pathname.replace(/\/$/, "");
  const board = document.getElementById("board");
  const choices = document.getElementById("choices");
  const hint = document.getElementById("hint");
  const statusLine = document.getElementById("status");
  const clock = document.getElementById("clock");
  const problem = document.getElementById("problem");
  const history = document.getElementById("history");
  const received = [];  // every message, in order (the tests compare them with the seat's views)
  window.kafanaSeat = { received };
  let message = null, selection = [], deadline = 0, answered = -1;

  // How `chosen` (parts clicked in turn) fits an action's `steps` (each step a sequence of parts, a part a name or
  // a list of names any of which does; the steps in any order): "whole" when it makes every step, "part" when it
  // begins them, null when it does not fit.
  function fits(chosen, steps, used = steps.map(() => false)) {
    if (!chosen.length) return used.every(Boolean) ? "whole" : "part";
    let found = null;
    steps.forEach((step, i) => {
      if (used[i] || found === "whole") return;
      const k = Math.min(step.length, chosen.length);
      for (let j = 0; j < k; j++) if (!(Array.isArray(step[j]) ? step[j].includes(chosen[j]) : chosen[j] === step[j])) return;
      if (k < step.length) { found = found || "part"; return; }  // the selection ends inside this step
      used[i] = true;
      const rest = fits(chosen.slice(k), steps, used);
      used[i] = false;
      if (rest) found = rest === "whole" ? "whole" : found || "part";
    });
    return found;
  }

  function names(seat) {
    return message.names && message.names[seat] ? message.names[seat] : `seat ${seat}`;
  }

  function say(text) { statusLine.textContent = text; }

  function note(text) {
    const line = document.createElement("div");
    line.textContent = text;
    history.prepend(line);
  }

  // Draw the view; when the seat is to act, mark what is chosen and what may be clicked next (a part that, added
  // to the selection, still fits a legal action).
  function draw(view) {
    board.replaceChildren(Viewer.draw(view, message.names));
    const deciding = message.kind === "decide";
    board.dataset.decision = deciding ? message.decision : "";
    const next = new Map();
    for (const node of board.querySelectorAll("[data-part]")) {
      const part = node.dataset.part;
      if (deciding && !next.has(part)) next.set(part, message.legal.some((a) => fits([...selection, part], a.steps)));
      node.classList.toggle("chosen", deciding && selection.includes(part));
      node.classList.toggle("can", deciding && next.get(part));
    }
  }

  function fitting() {
    return message.legal.map((action) => [action, fits(selection, action.steps)]).filter(([, fit]) => fit);
  }

  function list() {
    choices.replaceChildren();
    const open = fitting();
    for (const [action, fit] of open) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "choice" + (fit === "whole" ? " whole" : "");
      button.dataset.action = action.id;
      button.textContent = action.notation;
      button.onclick = () => play(action);
      choices.appendChild(button);
    }
    hint.textContent = selection.length
      ? `chosen: ${selection.join(" ")} (${open.length} ${open.length === 1 ? "move fits" : "moves fit"})`
      : "click on the board (a checker, then where it goes or a die; a card), or choose a move below";
  }

  async function play(action) {
    if (answered === message.decision) return;
    answered = message.decision;
    problem.textContent = "";
    const answer = await fetch(`${base}/move`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ decision: message.decision, action: action.id }),
    });
    if (!answer.ok) {
      answered = -1;
      problem.textContent = (await answer.json()).error;
    }
  }

  board.addEventListener("click", (event) => {
    if (!message || message.kind !== "decide") return;
    const parts = [];
    for (let node = event.target; node && node !== board; node = node.parentNode) {
      if (node.dataset && node.dataset.part) parts.push(node.dataset.part);
    }
    // The innermost part that fits after the selection; else one that begins a move afresh.
    const next = parts.map((part) => [...selection, part]).find((chosen) => message.legal.some((a) => fits(chosen, a.steps)))
      || parts.map((part) => [part]).find((chosen) => message.legal.some((a) => fits(chosen, a.steps)));
    if (!next) {
      problem.textContent = parts.length ? `no legal move goes so (${parts[0]})` : "";
      return;
    }
    problem.textContent = "";
    selection = next;
    draw(message.view);
    list();
    const open = fitting();
    if (open.length === 1 && open[0][1] === "whole") play(open[0][0]);
  });

  document.getElementById("clear").onclick = () => {
    selection = [];
    if (message && message.kind === "decide") { draw(message.view); list(); }
  };

  function tick() {
    const left = Math.max(0, deadline - performance.now());
    clock.textContent = deadline ? `${(left / 1000).toFixed(0)} s for this move` : "";
    clock.classList.toggle("short", deadline && left < 15000);
  }

  function show(latest) {
    message = latest;
    received.push(latest);
    document.getElementById("title").textContent = `seat ${latest.seat}: ${names(latest.seat)}`;
    if (latest.kind !== "decide") {
      deadline = 0;
      choices.replaceChildren();
      hint.textContent = "";
    }
    if (latest.kind === "decide") selection = [];
    if (latest.view) draw(latest.view);
    const others = (latest.names || []).filter((_, seat) => seat !== latest.seat);
    if (latest.kind === "decide") {
      list();
      deadline = performance.now() + latest.limit_ms;
      say(`Your move (${latest.game}, decision ${latest.decision}).`);
    } else if (latest.kind === "wait") {
      if (latest.played) note(`you played ${latest.played}`);
      say(others.length === 1 ? `${others[0]} is thinking…` : "The others are thinking…");
    } else if (latest.kind === "game_over" || latest.kind === "match_over") {
      const points = latest.seats.map((s) => `${names(s.seat)} ${s.points}`).join(", ");
      const text = `${latest.kind === "game_over" ? "Game over" : "Match over"}${latest.termination ? " by " + latest.termination : ""}: ${points}`;
      note(text);
      say(text);
    } else if (latest.kind === "timeout") {
      say("Your time ran out: the game is lost.");
    } else if (latest.kind === "closed") {
      say(`${statusLine.textContent} (${latest.message})`);
      events.close();
    }
    document.body.dataset.kind = latest.kind;
    tick();
  }

  const events = new EventSource(`${base}/events`);
  events.onmessage = (event) => show(JSON.parse(event.data));
  events.onerror = () => { if (!message || message.kind !== "closed") say("Connection lost: trying again…"); };
  setInterval(tick, 500);
})();
