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
  return h("div", {}, built, meaning);
}

function matchRows(list) {
  return table(["match", "arena", "seats", "status", "result", "faults", "decisions"], list.map((m) => [
    link(`/matches/${encodeURIComponent(m.id)}`, m.id), m.arena, h("span", {}, m.seats.map((s, i) => [i ? ", " : "", botLink(s)])),
    h("span", { class: m.status === "running" ? "live" : "" }, m.status),
    m.points ? `${m.termination} ${m.points.join(":")}` : (m.error || ""),
    h("span", { class: "fault" }, m.faults.map((f) => `seat ${f.seat} ${f.kind}`).join("; ")), m.decisions ?? "",
  ]), "matches");
}

function every(ms, work) {
  work();
  const timer = setInterval(work, ms);
  window.addEventListener("popstate", () => clearInterval(timer), { once: true });
}

async function leaderboards() {
  every(REFRESH_MS * 2, async () => {
    const arenas = await getJSON("/api/arenas");
    const parts = [h("h1", {}, "Leaderboards")];
    for (const arena of arenas) {
      const lines = await getJSON(`/api/arenas/${encodeURIComponent(arena.id)}/standings`);
      parts.push(h("h2", {}, link(`/arenas/${encodeURIComponent(arena.id)}`, arena.id),
        h("span", { class: "muted" }, ` ${arena.done} matches${arena.running ? `, ${arena.running} running` : ""}`)));
      parts.push(lines.length ? standingsTable(lines) : h("p", { class: "muted" }, "no results yet"));
    }
    main.replaceChildren(...parts);
  });
}

async function arenaPage(arena) {
  const [lines, cross] = await Promise.all([
    getJSON(`/api/arenas/${encodeURIComponent(arena)}/standings`),
    getJSON(`/api/arenas/${encodeURIComponent(arena)}/crosstable`),
  ]);
  const cell = {};
  cross.cells.forEach((c) => { cell[`${c.row}|${c.column}`] = c; });
  const crossTable = table(["", ...cross.labels], cross.labels.map((row) => [row, ...cross.labels.map((column) => {
    const c = cell[`${row}|${column}`];
    return c ? `${c.wins}/${c.games}` : "";
  })]), "crosstable");
  main.replaceChildren(h("h1", {}, `Arena ${arena}`), standingsTable(lines), h("h2", {}, "Head to head (wins/games)"),
    crossTable, link(`/matches?arena=${encodeURIComponent(arena)}`, "matches of this arena"));
}

async function botPage(name) {
  const bot = await getJSON(`/api/bots/${encodeURIComponent(name)}`);
  main.replaceChildren(h("h1", {}, `Bot ${bot.name}${bot.retired ? " (retired)" : ""}`),
    h("h2", {}, "Versions"),
    table(["version", "declared", "language", "hash", "games", "submitted"], bot.versions.map((v) => [
      v.number, v.version, v.language, v.hash, v.games.join(", "), v.created_at])),
    h("h2", {}, "Faults"),
    bot.faults.length ? table(["match", "kind", "message"], bot.faults.map((f) => [
      link(`/matches/${encodeURIComponent(f.match)}`, f.match), h("span", { class: "fault" }, f.kind), f.message]))
      : h("p", { class: "muted" }, "none"),
    h("h2", {}, "Recent matches"), matchRows(bot.matches));
}

async function matchesPage() {
  const params = new URLSearchParams(location.search);
  const form = h("form", { class: "filters" },
    ["arena", "bot", "fault"].map((name) => h("label", {}, `${name} `,
      h("input", { name, value: params.get(name) || "", size: 12 }))),
    h("button", { type: "submit" }, "filter"));
  const list = h("div", { class: "match-list" });
  main.replaceChildren(h("h1", {}, "Matches"), form, list);
  every(REFRESH_MS, async () => {
    const query = new URLSearchParams([...params].filter(([, v]) => v));
    list.replaceChildren(matchRows(await getJSON(`/api/matches?${query}`)));
  });
}

async function matchPage(id, seat) {
  const match = await getJSON(`/api/matches/${encodeURIComponent(id)}`);
  const info = h("div", {}, h("h1", {}, `Match ${match.id}`),
    h("p", {}, `arena ${match.arena}: `, match.seats.map((s, i) => [i ? " vs " : "", botLink(s)]),
      ` — ${match.status}${match.points ? `, ${match.termination} ${match.points.join(":")}` : ""}`),
    match.games.length ? table(["game", "termination", "points"], match.games.map((g, i) => [
      `${i + 1}. ${g.game}`, g.termination, g.points.join(":")]), "games") : "",
    match.faults.map((f) => h("p", { class: "fault" }, `seat ${f.seat}: ${f.kind} — ${f.message}`)));
  const viewer = h("div", { id: "viewer" });
  const output = h("div", { class: "output" });
  main.replaceChildren(info, viewer, output);
  if (!match.has_replay) { viewer.textContent = "no replay stored for this match"; return; }
  const replay = await getJSON(`/api/matches/${encodeURIComponent(id)}/replay${seat === null ? "" : `?seat=${seat}`}`);
  Viewer.mount(viewer, replay, seat, (next) => matchPage(id, next));
  replay.problems.forEach((problem) => info.append(h("p", { class: "fault" }, `replay: ${problem}`)));
  // The bots' logs: a club ladder shows an author those of its own bots only.
  const logs = await getJSON(`/api/matches/${encodeURIComponent(id)}/logs`).catch(() => ({ seats: [] }));
  output.replaceChildren(...logs.seats.map((o) => o.stderr ? h("div", {},
    h("h3", {}, `seat ${o.seat} stderr`), h("pre", { class: "output" }, o.stderr)) : ""));
}

async function send(url, body, csrf, type) {
  const response = await fetch(url, { method: "POST", body, headers: {
    "Content-Type": type || "application/json", ...(csrf ? { "X-CSRF-Token": csrf } : {}) } });
  const data = await response.json();
  if (!response.ok && !("report" in data)) throw new Error(data.error || response.statusText);
  return data;
}

async function signinPage() {
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
  const file = h("input", { type: "file", name: "archive", accept: ".tar.gz,.tgz,application/gzip" });
  const report = h("pre", { class: "report" });
  const form = h("form", { class: "upload" }, h("label", {}, "A bot folder as a .tar.gz ", file),
    h("button", { type: "submit" }, "Upload"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!file.files.length) return;
    report.textContent = "checking… (the build and the conformance run take a while)";
    try {
      const answer = await send("/api/uploads", file.files[0], me.csrf, "application/gzip");
      report.textContent = answer.report;
      report.className = answer.accepted ? "report accepted" : "report refused";
    } catch (error) { report.textContent = String(error.message || error); }
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
    me.uploads.length ? table(["received", "bytes", "verdict", "report"], me.uploads.map((u) => [u.received_at,
      u.bytes, u.accepted ? "accepted" : "refused", h("pre", { class: "report" }, u.report)]))
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
    else if (path === "/signin") await signinPage();
    else if (path === "/me") await mePage();
    else if ((m = path.match(/^\/matches\/(.+)$/))) {
      const seat = new URLSearchParams(location.search).get("seat");
      await matchPage(m[1], seat === null ? null : Number(seat));
    } else main.textContent = "page not found";
  } catch (error) {
    main.replaceChildren(h("p", { class: "fault" }, String(error.message || error)));
  }
}

route();
