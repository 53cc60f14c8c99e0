// Kafana league pages: leaderboards, an arena's standings and cross-table, a bot, the match list and a match with
// its replay. Every page reads the JSON API; lists refresh themselves so running matches appear without a reload.
"use strict";

const main = document.getElementById("main");
const REFRESH_MS = 3000;

async function getJSON(url) {
  const response = await fetch(url);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else if (k.startsWith("data-")) node.setAttribute(k, v); else node[k] = v;
  }
  for (const child of children.flat(Infinity)) node.append(child instanceof Node ? child : String(child ?? ""));
  return node;
}

function link(href, label) { return h("a", { href }, label); }

function table(headers, rows, cls) {
  return h("table", { class: cls || "" },
    h("tr", {}, headers.map((x) => h("th", {}, x))),
    rows.map((cells) => h("tr", {}, cells.map((c) => h("td", {}, c)))));
}

function botLink(label) { return link(`/bots/${encodeURIComponent(label.replace(/ v\d+$/, ""))}`, label); }

let columns = {};  // what each leaderboard column means (/api/columns), shown as the headers' tooltips
getJSON("/api/columns").then((answer) => { columns = answer; }).catch(() => {});

function standingsTable(lines) {
  const headers = ["bot", "rating", "95% interval", "units", "games", "W", "D", "L", "faults", "LOS next", "trend",
    "games/hour"];
  const legend = (name) => columns[name] || columns[{ W: "W D L", D: "W D L", L: "W D L" }[name]] || "";
  const known = (l) => (l.low === null ? "?" : `${Math.round(l.low)}..${Math.round(l.high)}`);
  const built = table(headers, lines.map((l) => [
    botLink(`${l.bot} v${l.version}`), Math.round(l.rating), known(l), l.units, l.games,
    l.wins, l.draws, l.losses, l.faults, l.superiority === null ? "" : `${Math.round(100 * l.superiority)}%`,
    h("span", { class: "trend", title: "latest results, oldest first" }, l.trend), l.games_last_hour,
  ]), "standings");
  built.querySelectorAll("th").forEach((th) => { th.title = legend(th.textContent); });
  const meaning = h("details", { class: "legend" }, h("summary", {}, "What the columns mean"),
    h("dl", {}, Object.entries(columns).map(([name, text]) => [h("dt", {}, name), h("dd", {}, text)])));
  const fitted = lines.length ? lines[0].rated_at : null;  // the ratings are the fit made then
  const rated = fitted ? h("p", { class: "rated" }, "Ratings fitted ", when(fitted)) : "";
  return h("div", {}, built, rated, meaning);
}

function titled(text) { document.title = `${text} — Kafana`; }

function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return h("time", { dateTime: iso, title: iso }, date.toLocaleString([], { dateStyle: "short", timeStyle: "medium" }));
}

function duration(seconds) {
  if (seconds === null || seconds === undefined) return "";
  return seconds < 60 ? `${seconds.toFixed(1)} s` : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

function matchRows(list) {
  return table(["finished", "duration", "arena", "seats", "result", "faults", "decisions", "match"], list.map((m) => [
    m.status === "running" ? h("span", { class: "live" }, "running") : when(m.finished_at),
    duration(m.seconds), m.arena,
    h("span", {}, m.seats.map((s, i) => [i ? ", " : "",
      m.winners.includes(i) ? h("strong", { class: "winner", title: "winner" }, botLink(s)) : botLink(s)])),
    m.summary || m.error || m.status,
    h("span", { class: "fault" }, m.faults.map((f) => `${m.seats[f.seat] || "seat " + f.seat} ${f.kind}`).join("; ")),
    m.decisions ?? "", link(`/matches/${encodeURIComponent(m.id)}`, m.status === "running" ? "watch" : "replay"),
  ]), "matches");
}

function every(ms, work) {
  work();
  const timer = setInterval(work, ms);
  window.addEventListener("popstate", () => clearInterval(timer), { once: true });
}

// Arenas a reader wants first: the Tabla match, then by how much they are played; empty ones last, folded.
function ordered(arenas) {
  const played = (a) => a.done + a.running;
  return [...arenas].sort((a, b) => (b.id === "tabla-match") - (a.id === "tabla-match") || played(b) - played(a) ||
    a.id.localeCompare(b.id));
}

async function leaderboards() {
  titled("Leaderboards");
  every(REFRESH_MS * 2, async () => {
    const arenas = ordered(await getJSON("/api/arenas"));
    const parts = [h("h1", {}, "Leaderboards")];
    const empty = arenas.filter((a) => !a.done && !a.running);
    for (const arena of arenas.filter((a) => a.done || a.running)) {
      const lines = await getJSON(`/api/arenas/${encodeURIComponent(arena.id)}/standings`);
      parts.push(h("h2", { class: "arena", "data-arena": arena.id }, link(`/arenas/${encodeURIComponent(arena.id)}`, arena.id),
        h("span", { class: "muted" }, ` ${arena.done} matches${arena.running ? `, ${arena.running} running` : ""}`)));
      parts.push(lines.length ? standingsTable(lines) : h("p", { class: "muted" }, "no complete unit yet"));
    }
    if (empty.length) {
      parts.push(h("details", { class: "empty-arenas" }, h("summary", {}, `${empty.length} ${empty.length === 1 ? "arena" : "arenas"} without matches`),
        h("ul", {}, empty.map((a) => h("li", {}, link(`/arenas/${encodeURIComponent(a.id)}`, a.id))))));
    }
    main.replaceChildren(...parts);
  });
}

async function arenaPage(arena) {
  titled(`Arena ${arena}`);
  const base = `/api/arenas/${encodeURIComponent(arena)}`;
  const [lines, cross, history, cups] = await Promise.all([
    getJSON(`${base}/standings`), getJSON(`${base}/crosstable`), getJSON(`${base}/history`),
    getJSON(`/api/tournaments?arena=${encodeURIComponent(arena)}`)]);
  const cell = {};
  cross.cells.forEach((c) => { cell[`${c.row}|${c.column}`] = c; });
  const crossTable = table(["", ...cross.labels], cross.labels.map((row) => [row, ...cross.labels.map((column) => {
    const c = cell[`${row}|${column}`];
    return c ? `${c.wins}/${c.games}` : "";
  })]), "crosstable");
  const over = h("select", { class: "history-axis" }, h("option", { value: "units" }, "over units played"),
    h("option", { value: "time" }, "over time"));
  const chart = h("div", {}, Charts.ratingHistory(history, "units"));
  over.onchange = () => { chart.replaceChildren(Charts.ratingHistory(history, over.value)); Charts.drawAll(chart); };
  main.replaceChildren(h("h1", {}, `Arena ${arena}`), standingsTable(lines),
    h("h2", {}, "Rating history ", over), history.units.length ? chart : h("p", { class: "muted" }, "no complete unit yet"),
    h("h2", {}, "Head to head"), cross.labels.length ? Charts.crossTable(cross) : "",
    h("details", {}, h("summary", {}, "as a table (wins/games)"), crossTable),
    ...(cups.length ? [h("h2", {}, "Tournaments"), h("ul", { class: "arena-tournaments" }, cups.map((t) => h("li", {},
      link(`/tournaments/${encodeURIComponent(t.name)}`, t.name), ` ${t.format}, ${t.status}`,
      t.champion ? [", champion ", botLink(t.champion)] : "")))] : []),
    link(`/matches?arena=${encodeURIComponent(arena)}`, "matches of this arena"));
  Charts.drawAll(main);
}

async function botPage(name) {
  titled(`Bot ${name}`);
  const [bot, charts] = await Promise.all([getJSON(`/api/bots/${encodeURIComponent(name)}`),
    getJSON(`/api/bots/${encodeURIComponent(name)}/history`)]);
  const ratings = Object.entries(charts.ratings).map(([arena, history]) =>
    Charts.ratingHistory(history, "units", `${arena}: rating with its 95% band`));
  const opponents = Object.entries(charts.opponents).filter(([, list]) => list.length)
    .map(([arena, list]) => Charts.opponents(arena, list));
  main.replaceChildren(h("h1", {}, `Bot ${bot.name}${bot.retired ? " (retired)" : ""}`),
    h("h2", {}, "Rating history"), ratings.length ? h("div", { class: "charts" }, ratings) : h("p", { class: "muted" }, "no complete unit yet"),
    h("h2", {}, "Results by opponent"), opponents.length ? h("div", { class: "charts" }, opponents) : h("p", { class: "muted" }, "none yet"),
    h("h2", {}, "Faults"), charts.faults.length ? Charts.faults(charts.faults) : "",
    bot.faults.length ? table(["match", "kind", "message"], bot.faults.map((f) => [
      link(`/matches/${encodeURIComponent(f.match)}`, f.match), h("span", { class: "fault" }, f.kind), f.message]))
      : h("p", { class: "muted" }, "none"),
    h("h2", {}, "Versions"),
    table(["version", "declared", "language", "hash", "games", "submitted"], bot.versions.map((v) => [
      v.number, v.version, v.language, v.hash, v.games.join(", "), v.created_at])),
    h("h2", {}, "Recent matches"), matchRows(bot.matches),
    h("h2", {}, "Played by people"), peopleRows(bot.people),
    h("p", { class: "muted" }, "Games people play count in no rating."));
  const offer = await getJSON(`/api/bots/${encodeURIComponent(name)}/challenge`).catch(() => null);
  if (offer && offer.arenas.length && !bot.retired) main.insertBefore(challenge(name, offer), main.children[1]);
  Charts.drawAll(main);
}

// A club's offer to play a bot yourself: choose the arena, and the game opens on your seat's page.
function challenge(name, offer) {
  const box = h("div", { class: "challenge" });
  if (!offer.signed_in && !offer.visitors) {
    box.append(h("p", { class: "muted" }, "Sign in to play this bot yourself (", link("/signin", "sign in"), ")."));
    return box;
  }
  const arena = h("select", { name: "arena" }, offer.arenas.map((a) => h("option", { value: a }, a)));
  const said = h("span", { class: "fault" });
  const play = h("button", { type: "button", class: "play-bot" }, "Play it");
  play.onclick = async () => {
    play.disabled = true;
    try {
      const me = offer.signed_in ? await getJSON("/api/me") : null;
      const answer = await send("/api/challenges", JSON.stringify({ bot: name, arena: arena.value }), me && me.csrf);
      location.href = answer.url;
    } catch (error) {
      said.textContent = ` ${error.message}`;
      play.disabled = false;
    }
  };
  box.append(h("p", {}, "Play this bot yourself in ", arena, " ", play, said));
  return box;
}

// People's games against a bot, newest first, each with its result and its replay.
function peopleRows(list) {
  if (!list.length) return h("p", { class: "muted" }, "none yet");
  return table(["game", "person", "arena", "result", "when"], list.map((g) => [
    g.has_replay ? link(`/people/${g.id}`, `#${g.id}`) : `#${g.id}`, `${g.person} (seat ${g.seat})`, g.arena,
    g.status === "done" ? `${g.points.join(":")} by ${g.termination}` : g.status === "failed" ? g.message : g.status,
    when(g.finished_at || g.created_at)]), "people");
}

// A person's game against a bot: its result and its replay (every hand: no unit's other match deals the same).
async function personPage(id) {
  const game = await getJSON(`/api/people/${encodeURIComponent(id)}`);
  titled(`A person's game #${game.id}`);
  const viewer = h("div", { id: "viewer" });
  main.replaceChildren(h("h1", {}, `${game.person} against ${game.bot}`),
    h("p", {}, `arena ${game.arena}, the person in seat ${game.seat}: `,
      game.status === "done" ? `${game.points.join(":")} by ${game.termination}` : game.message || game.status),
    game.faults.map((f) => h("p", { class: "fault" }, `seat ${f.seat}: ${f.kind} — ${f.message}`)), viewer);
  if (!game.has_replay) { viewer.textContent = "no replay stored for this game"; return; }
  const { step, seat } = replayLink();
  const url = (next) => `/api/people/${encodeURIComponent(id)}/replay${next === null ? "" : `?seat=${next}`}`;
  Viewer.mount(viewer, await getJSON(url(seat)), seat, {
    start: step,
    onSeat: (next, at) => {
      history.replaceState(null, "", `${location.pathname}#step=${at}${next === null ? "" : `&seat=${next}`}`);
      personPage(id);
    },
  });
}

async function matchesPage() {
  titled("Matches");
  const params = new URLSearchParams(location.search);
  const choices = await getJSON("/api/filters");
  const select = (name, values) => {
    const node = h("select", { name }, h("option", { value: "" }, `any ${name}`),
      values.map((v) => h("option", { value: v, selected: params.get(name) === v }, v)));
    node.onchange = () => node.form.submit();
    return node;
  };
  const form = h("form", { class: "filters" },
    h("label", {}, "arena ", select("arena", choices.arenas)), h("label", {}, "bot ", select("bot", choices.bots)),
    h("label", {}, "fault ", select("fault", choices.faults)));
  const list = h("div", { class: "match-list" });
  main.replaceChildren(h("h1", {}, "Matches"), form, list);
  every(REFRESH_MS, async () => {
    const query = new URLSearchParams([...params].filter(([, v]) => v));
    list.replaceChildren(matchRows(await getJSON(`/api/matches?${query}`)));
  });
}

// The step and the seat of a replay link: /matches/ID#step=12&seat=1 (?seat=1 is understood too).
function replayLink() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const seat = hash.get("seat") ?? new URLSearchParams(location.search).get("seat");
  return { step: Number(hash.get("step") || 0), seat: seat === null || seat === "" ? null : Number(seat) };
}

const LIVE_MS = 1500;

async function matchPage(id) {
  const match = await getJSON(`/api/matches/${encodeURIComponent(id)}`);
  titled(`Match ${match.id}`);
  let { step, seat } = replayLink();
  let note = "";
  if (seat === null && !match.spectator_open) {
    seat = 0;  // every hand would show what the unit's other matches deal: a seat's view until they are played
    note = h("p", { class: "muted" },
      "The spectator view (every hand) opens when this match's unit is complete; showing a seat's view.");
  }
  const info = h("div", {}, h("h1", {}, `Match ${match.id}`),
    h("p", {}, `arena ${match.arena}: `, match.seats.map((s, i) => [i ? " vs " : "",
      match.winners.includes(i) ? h("strong", { class: "winner" }, botLink(s)) : botLink(s)]),
      ` — ${match.status === "running" ? "running" : match.summary || match.status}`),
    match.games.length ? table(["game", "termination", "points"], match.games.map((g, i) => [
      `${i + 1}. ${g.game}`, g.termination, g.points.join(":")]), "games") : "",
    match.faults.map((f) => h("p", { class: "fault" }, `${match.seats[f.seat] || "seat " + f.seat}: ${f.kind} — ${f.message}`)),
    note);
  const viewer = h("div", { id: "viewer" });
  const output = h("div", { class: "output" });
  main.replaceChildren(info, viewer, output);
  if (!match.has_replay) { viewer.textContent = "no replay stored for this match"; return; }
  const url = `/api/matches/${encodeURIComponent(id)}/replay${seat === null ? "" : `?seat=${seat}`}`;
  const replay = await getJSON(url);
  const mark = (k) => {
    const hash = `#step=${k}${seat === null ? "" : `&seat=${seat}`}`;
    if (location.hash !== hash) history.replaceState(null, "", location.pathname + hash);
  };
  const shown = Viewer.mount(viewer, replay, seat, {
    start: step, spectatorOpen: match.spectator_open, onStep: mark,
    onSeat: (next, at) => {
      history.replaceState(null, "", `${location.pathname}#step=${at}${next === null ? "" : `&seat=${next}`}`);
      matchPage(id);
    },
  });
  replay.problems.forEach((problem) => info.append(h("p", { class: "fault" }, `replay: ${problem}`)));
  if (match.analysable) {
    // Judging every play takes the server a few seconds: asked for, not made for every visit.
    const said = h("span", { class: "muted" });
    const ask = h("button", { class: "analyse" }, "judge every play");
    ask.onclick = async () => {
      ask.disabled = true;
      said.textContent = " judging…";
      try {
        const analysis = await getJSON(`/api/matches/${encodeURIComponent(id)}/analysis${seat === null ? "" : `?seat=${seat}`}`);
        shown.annotate(analysis);
        said.textContent = " " + analysis.seats.map((s) => `${s.bot}: error rate ${(100 * s.rate).toFixed(1)}, ` +
          `${s.doubtful} doubtful, ${s.blunders} blunder${s.blunders === 1 ? "" : "s"}`).join("; ") +
          ` (hundredths of a point a decision; doubtful from ${100 * analysis.thresholds.doubtful}, blunder from ` +
          `${100 * analysis.thresholds.blunder})`;
        said.className = "summary";
      } catch (error) {
        said.textContent = ` ${error.message}`;
        said.className = "fault";
        ask.disabled = false;
      }
    };
    info.append(h("p", { class: "analysis" }, ask, said));
  }
  if (replay.live) {
    // A running match: fetch what has been played since, until the referee has written the result.
    const timer = setInterval(async () => {
      try {
        const latest = await getJSON(url);
        shown.extend(latest, latest.live);
        if (!latest.live) clearInterval(timer);
      } catch (error) {
        clearInterval(timer);
        matchPage(id);  // finished meanwhile: show it whole
      }
    }, LIVE_MS);
    window.addEventListener("popstate", () => clearInterval(timer), { once: true });
    return;
  }
  // The bots' logs: a club ladder shows an author those of its own bots only.
  const logs = await getJSON(`/api/matches/${encodeURIComponent(id)}/logs`).catch(() => ({ seats: [] }));
  output.replaceChildren(...logs.seats.map((o) => o.stderr ? h("div", {},
    h("h3", {}, `${match.seats[o.seat] || "seat " + o.seat} stderr`), h("pre", { class: "output" }, o.stderr)) : ""));
}

async function tournamentsPage() {
  titled("Tournaments");
  const list = await getJSON("/api/tournaments");
  main.replaceChildren(h("h1", {}, "Tournaments"), list.length ? table(["tournament", "format", "arena", "entrants",
    "rounds", "status", "champion"], list.map((t) => [link(`/tournaments/${encodeURIComponent(t.name)}`, t.name),
    t.format + (t.elimination ? ` (${t.elimination})` : ""), link(`/arenas/${encodeURIComponent(t.arena)}`, t.arena),
    t.entrants, t.rounds, h("span", { class: t.status === "running" ? "live" : "" }, t.status), t.champion || ""]),
  "tournaments") : h("p", { class: "muted" }, "none yet: ladder tournament --format knockout --arena tabla-match"));
}

// One group of a round: its seats with seeds and scores, the winner in bold, a link to its first replay.
function groupBox(group) {
  const rows = group.seats.map((seat, k) => h("div", { class: `seat${group.winner === seat ? " winner" : ""}` },
    h("span", { class: "seed" }, group.seeds[k]), " ", botLink(seat),
    h("span", { class: "score" }, group.units ? String(group.scores[k]) : "")));
  const how = { seed: "level: the better seed", forfeit: "forfeit" }[group.decided_by] || "";
  const replay = group.matches.length ? link(`/matches/${encodeURIComponent(group.matches[0].id)}`,
    group.status === "done" ? "replay" : "watch") : "";
  return h("div", { class: `group ${group.status}`, "data-label": group.label }, h("div", { class: "label" },
    group.label, " ", replay, how ? h("span", { class: "muted" }, ` ${how}`) : "",
    group.units > 1 ? h("span", { class: "muted" }, ` ${group.units} units`) : ""), rows);
}

function bracket(report) {
  return h("div", { class: "bracket" }, report.rounds.map((rnd) => h("div", { class: "bracket-round",
    "data-round": rnd.number }, h("h3", {}, `Round ${rnd.number}`), rnd.groups.map(groupBox),
    rnd.byes.length ? h("p", { class: "muted byes" }, `byes: ${rnd.byes.join(", ")}`) : "",
    rnd.standings ? h("ol", { class: "after-round" }, rnd.standings.map((line) => h("li", {}, botLink(line.bot),
      ` ${line.score}`))) : "")));
}

function tournamentStandings(report) {
  const lines = report.standings;
  if (!lines.length) return "";
  if ("buchholz" in lines[0]) {
    return table(["#", "bot", "score", "Buchholz", "Sonneborn-Berger", "byes"], lines.map((l, k) => [k + 1,
      botLink(l.version), l.score, l.buchholz, l.sonneborn_berger, l.byes]), "tournament-standings");
  }
  if ("opponent" in lines[0]) {
    return table(["opponent", "W", "D", "L"], lines.map((l) => [botLink(l.opponent), l.wins, l.draws, l.losses]),
      "tournament-standings");
  }
  return table(["#", report.teams ? "team" : "bot", "points", "tables topped", "byes"], lines.map((l, k) => [k + 1,
    h("span", {}, l.members.map((m, i) => [i ? " & " : "", botLink(m)])), l.points.toFixed(1), l.firsts, l.byes]),
  "tournament-standings");
}

async function tournamentPage(name) {
  titled(`Tournament ${name}`);
  every(REFRESH_MS, async () => {
    const report = await getJSON(`/api/tournaments/${encodeURIComponent(name)}`);
    const kind = report.format + (report.elimination ? ` (${report.elimination} elimination)` : "");
    main.replaceChildren(h("h1", {}, `Tournament ${report.name}`),
      h("p", {}, `${kind} in `, link(`/arenas/${encodeURIComponent(report.arena)}`, report.arena),
        `, ${report.entrants.length} entrants — `, h("span", { class: report.status === "running" ? "live" : "" },
          report.status), report.champion ? [" — champion: ", h("strong", { class: "champion" }, botLink(report.champion))] : ""),
      ...(report.format === "knockout" ? [] : [h("h2", {}, "Standings"), tournamentStandings(report)]),
      h("h2", {}, report.format === "knockout" ? "Bracket" : "Rounds"), bracket(report),
      h("h2", {}, "Entrants"), table(["seed", "bot", ""], report.entrants.map((e) => [e.seed, botLink(e.bot),
        e.withdrawn ? "withdrawn" : ""]), "entrants"));
  });
}

async function send(url, body, csrf, type) {
  const response = await fetch(url, { method: "POST", body, headers: {
    "Content-Type": type || "application/json", ...(csrf ? { "X-CSRF-Token": csrf } : {}) } });
  const data = await response.json();
  if (!response.ok && !("report" in data)) throw new Error(data.error || response.statusText);
  return data;
}

async function signinPage() {
  titled("Sign in");
  const token = h("input", { name: "token", type: "password", size: 60, placeholder: "kf_…" });
  const said = h("p", { class: "muted" });
  const form = h("form", { class: "signin" }, h("label", {}, "Your token ", token),
    h("button", { type: "submit" }, "Sign in"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await send("/api/signin", JSON.stringify({ token: token.value }));
      history.pushState(null, "", "/me");
      route();
    } catch (error) { said.textContent = String(error.message || error); }
  });
  main.replaceChildren(h("h1", {}, "Sign in"), form, said,
    h("p", { class: "muted" }, "The ladder's operator gives each author a token (ladder author add NAME)."));
}

async function mePage() {
  let me;
  try { me = await getJSON("/api/me"); } catch (error) { history.replaceState(null, "", "/signin"); return signinPage(); }
  titled(`Author ${me.author}`);
  const file = h("input", { type: "file", name: "archive", accept: ".tar.gz,.tgz,application/gzip" });
  const report = h("pre", { class: "report" });
  const form = h("form", { class: "upload" }, h("label", {}, "A bot folder as a .tar.gz ", file),
    h("button", { type: "submit" }, "Upload"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!file.files.length) return;
    report.textContent = "checking… (the build and the conformance run take a while)";
    const before = me.uploads.length ? me.uploads[0].id : 0;
    const watch = setInterval(async () => {  // the build's output as it comes, until the answer
      try {
        const newest = (await getJSON("/api/me")).uploads.find((u) => u.id > before);
        if (newest && newest.status !== "done") {
          report.textContent = `${newest.status}…\n${newest.progress || ""}`;
        }
      } catch (error) { /* the answer will say */ }
    }, 2000);
    try {
      const answer = await send("/api/uploads", file.files[0], me.csrf, "application/gzip");
      report.textContent = answer.report;
      report.className = answer.accepted ? "report accepted" : "report refused";
    } catch (error) { report.textContent = String(error.message || error); }
    clearInterval(watch);
  });
  const out = h("button", { type: "button" }, "Sign out");
  out.addEventListener("click", async () => { await send("/api/signout", "{}", me.csrf); location.href = "/"; });
  main.replaceChildren(h("h1", {}, `Author ${me.author}`), out,
    h("h2", {}, "Upload a bot"), form, report,
    h("p", { class: "muted" }, "Or from a shell: ladder submit --server URL --token TOKEN path/to/bot"),
    h("h2", {}, "Your bots"),
    me.bots.length ? table(["bot", "versions", "state"], me.bots.map((b) => [botLink(b.name),
      b.versions.map((v) => `v${v.number} (${v.language}, ${v.created_at})`).join(", "),
      b.retired ? "retired" : "playing"])) : h("p", { class: "muted" }, "none yet"),
    h("h2", {}, "Uploads"),
    me.uploads.length ? table(["received", "bytes", "verdict", "report", "build output"], me.uploads.map((u) => [
      u.received_at, u.bytes, u.status !== "done" ? `${u.status}…` : u.accepted ? "accepted" : "refused",
      h("pre", { class: "report" }, u.report || ""), h("pre", { class: "report" }, u.progress || "")]))
      : h("p", { class: "muted" }, "none yet"));
}

async function route() {
  const path = decodeURIComponent(location.pathname);
  try {
    let m;
    if (path === "/") await leaderboards();
    else if ((m = path.match(/^\/arenas\/(.+)$/))) await arenaPage(m[1]);
    else if ((m = path.match(/^\/bots\/(.+)$/))) await botPage(m[1]);
    else if (path === "/matches") await matchesPage();
    else if (path === "/tournaments") await tournamentsPage();
    else if ((m = path.match(/^\/tournaments\/(.+)$/))) await tournamentPage(m[1]);
    else if (path === "/signin") await signinPage();
    else if (path === "/me") await mePage();
    else if ((m = path.match(/^\/matches\/(.+)$/))) await matchPage(m[1]);
    else if ((m = path.match(/^\/people\/(.+)$/))) await personPage(m[1]);
    else { titled("Not found"); main.textContent = "page not found"; }
  } catch (error) {
    main.replaceChildren(h("p", { class: "fault" }, String(error.message || error)));
  }
}

route();
