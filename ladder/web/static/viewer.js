// Kafana replay viewer: draws frames (views as JSON from /api/matches/ID/replay) for the Tabla family (an SVG
// board with both seats' point numbers), Durak (a card table), Gapa and Gaps (their layouts). Frames come from the server, which re-runs the replay through the engine, so
// this file only draws: it never computes rules.
"use strict";

const Viewer = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const W = 820, H = 420, POINT_W = 54, BAR_W = 36, CHECKER = 22;

  function el(tag, attrs, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function text(x, y, value, parent, size) {
    const t = el("text", { x, y, "font-size": size || 14, "text-anchor": "middle" }, parent);
    t.textContent = value;
    return t;
  }

  // Point p (1..24, the viewing seat's numbering): top row 13..24 left to right, bottom row 12..1.
  function pointX(p) {
    const column = p >= 13 ? p - 13 : 12 - p;
    return 10 + column * POINT_W + (column >= 6 ? BAR_W : 0) + POINT_W / 2;
  }

  function drawBackgammon(view, names) {
    const svg = el("svg", { width: W + 120, height: H, viewBox: `0 0 ${W + 120} ${H}`, class: "backgammon" });
    el("rect", { x: 10 + 6 * POINT_W, y: 0, width: BAR_W, height: H, fill: "#5b2a1a", "data-part": "bar" }, svg);
    for (let p = 1; p <= 24; p++) {
      const top = p >= 13, x = pointX(p), i = p - 1;
      const tip = top ? H / 2 - 20 : H / 2 + 20, base = top ? 0 : H;
      el("polygon", {
        points: `${x - POINT_W / 2 + 2},${base} ${x + POINT_W / 2 - 2},${base} ${x},${tip}`,
        fill: p % 2 ? "#b5651d" : "#f0e0c0", "data-part": p,
      }, svg);
      // Both numberings: the viewing seat's (dark) and, beside it, the opponent's (light): notation is in the
      // mover's numbering.
      const label = text(x - 8, top ? H / 2 - 4 : H / 2 + 14, p, svg, 12);
      label.setAttribute("class", "number mine");
      const theirNumber = text(x + 10, top ? H / 2 - 4 : H / 2 + 14, view.their_numbers[i], svg, 10);
      theirNumber.setAttribute("class", "number theirs");
      const mine = view.mine[i], theirs = view.theirs[i], pin = view.pins[i];
      const group = el("g", { class: "point", "data-point": p, "data-part": p, "data-mine": mine, "data-theirs": theirs,
        "data-pin": ["", "mine", "theirs"][pin] }, svg);
      // A pinned checker lies under its pinner: drawn first, at the base, ringed in red.
      const stack = [];
      if (pin === 1) { stack.push(["mine", true]); for (let k = 0; k < theirs; k++) stack.push(["theirs", false]); }
      else if (pin === 2) { stack.push(["theirs", true]); for (let k = 0; k < mine; k++) stack.push(["mine", false]); }
      else {
        for (let k = 0; k < mine; k++) stack.push(["mine", false]);
        for (let k = 0; k < theirs; k++) stack.push(["theirs", false]);
      }
      stack.slice(0, 5).forEach(([side, pinned], k) => {
        const y = top ? CHECKER / 2 + 2 + k * CHECKER : H - CHECKER / 2 - 2 - k * CHECKER;
        el("circle", { cx: x, cy: y, r: CHECKER / 2 - 1, class: `checker ${side}${pinned ? " pinned" : ""}` }, group);
      });
      if (stack.length > 5) text(x, top ? 5 * CHECKER + 14 : H - 5 * CHECKER - 6, `×${stack.length}`, group, 12);
    }
    const side = W + 10;
    const me = names && names[view.seat] ? names[view.seat] : `seat ${view.seat}`;
    const them = names && names[1 - view.seat] ? names[1 - view.seat] : `seat ${1 - view.seat}`;
    const info = [
      `○ ${me}`, `● ${them}`, "point numbers:", "○'s bold, ●'s light",
      `bar ○${view.my_bar} ●${view.their_bar}`, `off ○${view.my_off} ●${view.their_off}`,
      view.dice.length ? `dice ${view.dice.join("-")}` : "",
      view.later_stages.length ? `ladder next: ${view.later_stages.join(", ")}` : "",
      view.remainder ? "playing a remainder" : "",
      view.match && view.match.target > 1 ? `match ${view.match.points.join(":")} to ${view.match.target}` : "",
      view.match && view.match.target > 1 ? `game ${view.match.game_number}: ${view.match.current_game}` : "",
    ].filter(Boolean);
    const panel = el("g", { class: "panel" }, svg);
    info.forEach((line, k) => text(side + 40, 30 + k * 24, line, panel, 13));
    // The dice, each a part a person may click to say which die a checker moves by.
    view.dice.forEach((value, k) => {
      const die = el("g", { class: "die", "data-part": `d${value}` }, svg);
      el("rect", { x: side + 8 + k * 40, y: H - 70, width: 32, height: 32, rx: 5, fill: "#fdfdfd", stroke: "#333" }, die);
      text(side + 24 + k * 40, H - 48, value, die, 16);
    });
    // The bar (between the halves: the opponent's checkers in the top half, ours in the bottom half) and the
    // borne-off trays (right of the board: theirs on top, ours below), one slim bar per checker.
    const barX = 10 + 6 * POINT_W + BAR_W / 2;
    const bar = el("g", { class: "bar", "data-part": "bar", "data-mine": view.my_bar, "data-theirs": view.their_bar }, svg);
    for (let k = 0; k < Math.min(view.their_bar, 4); k++) {
      el("circle", { cx: barX, cy: H / 2 - 30 - k * CHECKER, r: CHECKER / 2 - 1, class: "checker theirs" }, bar);
    }
    for (let k = 0; k < Math.min(view.my_bar, 4); k++) {
      el("circle", { cx: barX, cy: H / 2 + 30 + k * CHECKER, r: CHECKER / 2 - 1, class: "checker mine" }, bar);
    }
    if (view.their_bar > 4) text(barX, H / 2 - 10, `×${view.their_bar}`, bar, 11);
    if (view.my_bar > 4) text(barX, H / 2 + 16, `×${view.my_bar}`, bar, 11);
    const trayX = 10 + 12 * POINT_W + BAR_W + 6;
    const off = el("g", { class: "off", "data-mine": view.my_off, "data-theirs": view.their_off }, svg);
    el("rect", { x: trayX, y: 4, width: 26, height: H / 2 - 8, fill: "#d8c49c", stroke: "#5b2a1a" }, off);
    el("rect", { x: trayX, y: H / 2 + 4, width: 26, height: H / 2 - 8, fill: "#d8c49c", stroke: "#5b2a1a",
      "data-part": "off" }, off);  // the seat's own tray: where its checkers bear off to
    for (let k = 0; k < view.their_off; k++) {
      el("rect", { x: trayX + 3, y: 8 + k * 12, width: 20, height: 10, class: "checker theirs" }, off);
    }
    for (let k = 0; k < view.my_off; k++) {
      el("rect", { x: trayX + 3, y: H - 18 - k * 12, width: 20, height: 10, class: "checker mine", "data-part": "off" }, off);
    }
    const box = document.createElement("div");
    box.className = "board";
    box.appendChild(svg);
    return box;
  }

  const SUIT = { C: "♣", D: "♦", H: "♥", S: "♠" };

  // A card as its rank and suit symbol ("10♥"), red suits in red; data-card keeps the notation ("TH").
  function card(value) {
    const span = document.createElement("span");
    span.className = "card" + ("DH".includes(value[1]) ? " red" : "");
    span.dataset.card = value;
    span.dataset.part = value;
    span.textContent = (value[0] === "T" ? "10" : value[0]) + (SUIT[value[1]] || value[1]);
    span.title = value;
    return span;
  }

  // Card notation in running text ("beat 7H with 9C") with suit symbols.
  function withSuits(notation) {
    return notation.replace(/\b([2-9TJQKA])([CDHS])\b/g, (_, rank, suit) => (rank === "T" ? "10" : rank) + SUIT[suit]);
  }

  function backs(count) {
    const span = document.createElement("span");
    span.className = "card back";
    span.dataset.hidden = count;
    span.textContent = `${count}`;
    return span;
  }

  function cards(list) {
    const box = document.createElement("span");
    box.className = "cards";
    list.forEach((c) => box.appendChild(card(c)));
    return box;
  }

  function drawDurak(view, names) {
    const box = document.createElement("div");
    box.className = "durak";
    const head = document.createElement("p");
    head.textContent = `${view.variant}, bout ${view.bout}, trump ${SUIT[view.trump_suit] || "?"} (${withSuits(view.trump_card)}` +
      `${view.trump_in_stock ? " under the stock" : ""}), stock ${view.stock}, discard ${view.discard.length}` +
      (view.deals > 1 ? `, deal ${view.deal} of ${view.deals}, deals lost ${view.duraks.join(":")}` : "");
    box.appendChild(head);
    const table = document.createElement("table");
    table.className = "durak-table";
    view.seats.forEach((seat, number) => {
      const row = table.insertRow();
      row.className = "seat";
      row.dataset.seat = number;
      row.insertCell().textContent = `seat ${number}${names && names[number] ? " " + names[number] : ""}` +
        (seat.team >= 0 ? ` (team ${seat.team})` : "");
      row.insertCell().textContent = seat.place ? `out, place ${seat.place}` : seat.role;
      const hand = row.insertCell();
      hand.className = "hand";
      if (view.hands && view.hands.length) hand.appendChild(cards(view.hands[number]));
      else if (number === view.seat) hand.appendChild(cards(view.hand));
      else {
        hand.appendChild(cards(seat.known));
        const unknown = seat.hand_size - seat.known.length;
        if (unknown > 0) hand.appendChild(backs(unknown));
      }
    });
    box.appendChild(table);
    const onTable = document.createElement("div");
    onTable.className = "table-cards";
    onTable.appendChild(document.createTextNode("table: "));
    view.table.forEach(([attack, defence]) => {
      const pair = document.createElement("span");
      pair.className = "pair";
      pair.appendChild(card(attack));
      if (defence) pair.appendChild(card(defence));
      onTable.appendChild(pair);
    });
    box.appendChild(onTable);
    if (view.discard.length) {
      const discard = document.createElement("div");
      discard.className = "discard";
      discard.append("discard: ", cards(view.discard));
      box.appendChild(discard);
    }
    if (view.to_act >= 0) {
      const turn = document.createElement("p");
      turn.textContent = `to act: ${seatName(names, view.to_act)} (${view.phase.replace("_", " ")}), room for ${view.throw_room}`;
      box.appendChild(turn);
    }
    return box;
  }

  // The Gaps grid: one row of cards a line, gaps blank, the cards in place (each row's run) marked.
  function drawGaps(view) {
    const box = document.createElement("div");
    box.className = "gaps";
    const head = document.createElement("p");
    head.textContent = `${view.variant}, round ${view.round} of ${view.rounds}, ${view.moves} moves ` +
      `(cap ${view.move_cap}), ${view.placed} cards in place`;
    box.appendChild(head);
    const table = document.createElement("table");
    table.className = "gaps-grid";
    for (let r = 0; r < view.rows; r++) {
      const row = table.insertRow();
      row.dataset.row = r;
      for (let c = 0; c < view.columns; c++) {
        const value = view.grid[r * view.columns + c];
        const cell = row.insertCell();
        cell.dataset.place = r * view.columns + c;
        cell.dataset.part = `${r},${c}`;
        if (!value) cell.className = "gap";
        else {
          if (c < view.runs[r]) cell.className = "placed";
          cell.appendChild(card(value));
        }
      }
    }
    box.appendChild(table);
    return box;
  }

  // A Gapa place (a pile, a foundation) as the part a person clicks to move a card from or to, named as the
  // viewing seat's moves name it.
  function place(content, name) {
    const span = document.createElement("span");
    span.className = "place";
    span.append(content);
    span.dataset.part = name;
    return span;
  }

  // The Gapa table: each player's piles (face-down piles as counts), the foundations and the side piles.
  function drawGapa(view, names) {
    const box = document.createElement("div");
    box.className = "gapa";
    const head = document.createElement("p");
    head.textContent = `${view.mode}` + (view.turn >= 0 ? `, to act: ${seatName(names, view.turn)}` +
      (view.priority ? ` (priority ${view.priority})` : "") + `, ${view.actions} actions this turn` : "");
    box.appendChild(head);
    const table = document.createElement("table");
    table.className = "gapa-players";
    view.players.forEach((p, number) => {
      const row = table.insertRow();
      row.className = "seat";
      row.dataset.seat = number;
      row.insertCell().textContent = `seat ${number}${names && names[number] ? " " + names[number] : ""}`;
      const whose = number === view.seat ? "" : "their_";  // the mover's names of the places
      const small = row.insertCell();
      small.append(`small `, backs(p.small), ` up `, place(cards(p.small_up), `${whose}small_up`));
      const big = row.insertCell();
      big.append(`big `, p.big_known.length ? cards(p.big_known) : backs(p.big), ` up `, place(cards(p.big_up), `${whose}big_up`));
      const pending = row.insertCell();
      if (p.pending_from) pending.append(`pending (${p.pending_from}) `, place(p.pending ? card(p.pending) : backs(1), "pending"));
    });
    box.appendChild(table);
    const foundations = document.createElement("div");
    foundations.className = "foundations";
    foundations.append("foundations: ");
    view.foundations.forEach((top, number) => foundations.append(place(top ? card(top) : "--", `f${number}`), " "));
    box.appendChild(foundations);
    const side = document.createElement("div");
    side.className = "side";
    view.side.forEach((pile, number) => {
      const line = document.createElement("div");
      line.className = "side-pile";
      line.dataset.pile = number;
      line.dataset.part = `s${number}`;
      line.append(`s${number}: `, cards(pile));
      side.appendChild(line);
    });
    box.appendChild(side);
    return box;
  }

  // A game drawn by none of the drawings above (its registration's viewer is "text"): the terminal's text of it.
  function drawText(view) {
    const text = document.createElement("pre");
    text.className = "view-text";
    text.textContent = view.text ?? JSON.stringify(view, null, 2);
    return text;
  }

  // Each view names its drawing (`kind`, the viewer its game's registration names).
  const DRAWINGS = { backgammon: drawBackgammon, durak: drawDurak, gapa: drawGapa, gaps: drawGaps, text: drawText };

  function draw(view, names) {
    return (DRAWINGS[view.kind] || drawText)(view, names);
  }

  function seatName(names, seat) {
    return names && names[seat] ? `${names[seat]} (seat ${seat})` : `seat ${seat}`;
  }

  function describe(frame, names) {
    if (frame.type === "start") return "start";
    if (frame.type === "action") return `${seatName(names, frame.seat)}: ${withSuits(frame.notation)}`;
    return frame.type === "deal" ? frame.notation : `chance: ${withSuits(frame.notation)}`;
  }

  // Mount a viewer for `replay` (the API answer) into `root`, at frame `start`. `onSeat(seat)` shows another
  // seat's view; `onStep(step)` is told each step shown (for the page's link). Returns {show, extend, annotate}:
  // extend takes the frames of a live match as far as it is played, and follows the game when the last one was
  // shown; annotate takes the match's analysis (/api/matches/ID/analysis) and shows each judged play's error
  // beside it, and the board after the best play on demand.
  function mount(root, replay, seat, { start = 0, onSeat, onStep, spectatorOpen = true } = {}) {
    let frames = replay.frames;
    const names = (replay.header.seats || []).map((s) => s.name);
    let index = 0, timer = null, showBest = false;
    const judged = new Map();  // step -> the analysis of the decision made at it
    root.innerHTML = "";
    const controls = document.createElement("div");
    controls.className = "controls";
    const buttons = {};
    for (const [key, label] of [["first", "|<"], ["prev", "<"], ["play", "play"], ["next", ">"], ["last", ">|"]]) {
      const b = document.createElement("button");
      b.textContent = label;
      b.dataset.control = key;
      controls.appendChild(b);
      buttons[key] = b;
    }
    const slider = document.createElement("input");
    Object.assign(slider, { type: "range", min: 0, max: frames.length - 1, value: 0 });
    slider.className = "slider";
    controls.appendChild(slider);
    const position = document.createElement("span");
    position.className = "position";
    controls.appendChild(position);
    const seats = document.createElement("select");
    seats.className = "seat-select";
    const seatCount = replay.header.seats ? replay.header.seats.length : 2;
    [["", "spectator (everything)"], ...Array.from({ length: seatCount }, (_, k) => [String(k), `as ${seatName(names, k)}`])]
      .forEach(([value, label]) => {
        const option = document.createElement("option");
        Object.assign(option, { value, textContent: label, selected: String(seat ?? "") === value });
        if (value === "" && !spectatorOpen) {
          option.disabled = true;
          option.textContent += " — opens when the unit is complete";
        }
        seats.appendChild(option);
      });
    seats.onchange = () => onSeat && onSeat(seats.value === "" ? null : Number(seats.value), index);
    controls.appendChild(seats);
    const live = document.createElement("span");
    live.className = "live";
    controls.appendChild(live);
    const layout = document.createElement("div");
    layout.className = "viewer";
    const stage = document.createElement("div");
    stage.className = "stage";
    const moves = document.createElement("div");
    moves.className = "moves";
    layout.append(stage, moves);
    root.append(controls, layout);

    function listFrom(first) {
      for (let k = Math.max(1, first); k < frames.length; k++) {
        const frame = frames[k];
        const line = document.createElement("div");
        line.dataset.index = k;
        line.className = frame.type;
        const ms = frame.type === "action" ? ` ${Math.round(frame.ms)} ms` : "";
        line.textContent = `${k}. ${describe(frame, names)}${ms}`;
        if (frame.comment) line.title = frame.comment;
        line.onclick = () => { showBest = false; show(k); };
        moves.appendChild(line);
      }
    }

    // A judged play's line in the analysis: its error against the best (hundredths of a point) and its mark.
    function verdict(decision) {
      return decision.error > 0 ? `error ${(100 * decision.error).toFixed(1)}${decision.mark ? " " + decision.mark : ""}`
        : "the best play";
    }

    function show(k) {
      const previous = index;
      index = Math.max(0, Math.min(frames.length - 1, k));
      if (index !== previous) showBest = false;
      const frame = frames[index];
      const decision = frame.type === "action" ? judged.get(frame.first_step) : undefined;
      stage.innerHTML = "";
      stage.appendChild(draw(showBest && decision ? decision.best_view : frame.view, names));
      const caption = document.createElement("p");
      caption.className = "caption";
      caption.textContent = describe(frame, names) + (frame.type === "action" && frame.view.kind === "backgammon"
        ? ` (in ${names[frame.seat] || "seat " + frame.seat}'s numbering)` : "") +
        (frame.comment ? ` — ${frame.comment}` : "");
      stage.appendChild(caption);
      if (decision) {
        const judgement = document.createElement("p");
        judgement.className = `judgement ${decision.mark}`;
        judgement.textContent = `${verdict(decision)} (${decision.played_value.toFixed(3)}); ` +
          (decision.error > 0 ? `best ${decision.best} (${decision.best_value.toFixed(3)}) ` : "") +
          `— ${decision.search}`;
        if (decision.error > 0) {
          const toggle = document.createElement("button");
          toggle.className = "best-toggle";
          toggle.textContent = showBest ? "show the play made" : "show the best play";
          toggle.onclick = () => { showBest = !showBest; show(index); };
          judgement.append(" ", toggle);
        }
        stage.appendChild(judgement);
      }
      slider.value = index;
      position.textContent = ` step ${index} / ${frames.length - 1} `;
      root.dataset.step = index;
      moves.querySelectorAll(".current").forEach((n) => n.classList.remove("current"));
      const current = moves.querySelector(`[data-index="${index}"]`);
      if (current) {
        current.classList.add("current");
        // Scroll the list only, never the page: the board and the controls stay where they are.
        const top = current.offsetTop, bottom = top + current.offsetHeight;
        if (top < moves.scrollTop) moves.scrollTop = top;
        else if (bottom > moves.scrollTop + moves.clientHeight) moves.scrollTop = bottom - moves.clientHeight;
      }
      if (onStep) onStep(index);
    }

    function toggle() {
      if (timer) { clearInterval(timer); timer = null; buttons.play.textContent = "play"; return; }
      buttons.play.textContent = "pause";
      timer = setInterval(() => { if (index >= frames.length - 1) toggle(); else show(index + 1); }, 600);
    }

    function extend(latest, still) {
      const following = index === frames.length - 1;
      const known = frames.length;
      frames = latest.frames;
      slider.max = frames.length - 1;
      listFrom(known);
      live.textContent = still ? " ● live" : "";
      if (following && frames.length > known) show(frames.length - 1);
      else position.textContent = ` step ${index} / ${frames.length - 1} `;
    }

    buttons.first.onclick = () => show(0);
    buttons.prev.onclick = () => show(index - 1);
    buttons.next.onclick = () => show(index + 1);
    buttons.last.onclick = () => show(frames.length - 1);
    buttons.play.onclick = toggle;
    slider.oninput = () => show(Number(slider.value));
    document.onkeydown = (event) => {
      if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
      const keys = { ArrowRight: () => show(index + 1), ArrowLeft: () => show(index - 1), Home: () => show(0),
        End: () => show(frames.length - 1), " ": toggle };
      if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
    };
    function annotate(analysis) {
      analysis.decisions.forEach((decision) => judged.set(decision.step, decision));
      moves.querySelectorAll("div[data-index]").forEach((line) => {
        const decision = judged.get(frames[Number(line.dataset.index)].first_step);
        if (!decision) return;
        const note = document.createElement("span");
        note.className = `judgement ${decision.mark}`;
        note.textContent = verdict(decision);
        line.prepend(note);  // at the line's right end, where a long play's notation never hides it
      });
      show(index);
    }

    listFrom(1);
    live.textContent = replay.live ? " ● live" : "";
    show(start);
    return { show, extend, annotate };
  }

  return { mount, draw };
})();
