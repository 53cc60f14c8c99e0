// Kafana charts, drawn by plotly.js (served by ladder serve from the plotly package): each takes the numbers of
// one API answer and draws them as they are, so a chart and its JSON twin never disagree.
"use strict";

const Charts = (() => {
  const CONFIG = { displaylogo: false, responsive: true };
  const LAYOUT = { margin: { t: 30, r: 20, b: 50, l: 60 }, paper_bgcolor: "#faf7f0", plot_bgcolor: "#fff",
    font: { family: "system-ui, sans-serif" } };
  const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22"];

  // A chart's element, drawn by drawAll once it is in the page (plotly measures the space it is given).
  function box(cls, traces, layout) {
    const node = document.createElement("div");
    node.className = `chart ${cls}`;
    node.draw = () => Plotly.newPlot(node, traces, { ...LAYOUT, ...layout }, CONFIG);
    return node;
  }

  function drawAll(root) {
    root.querySelectorAll(".chart").forEach((node) => node.draw());
  }

  function translucent(colour) {
    const n = parseInt(colour.slice(1), 16);
    return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, 0.15)`;
  }

  // Every bot's rating over the units played (or time) with its 95% band: /api/arenas/ID/history.
  function ratingHistory(history, over, title = "Rating with its 95% band") {
    const x = over === "time" ? history.times : history.units;
    const traces = [];
    Object.entries(history.bots).forEach(([bot, line], k) => {
      const colour = COLOURS[k % COLOURS.length];
      const known = line.rating.map((r, i) => i).filter((i) => line.rating[i] !== null);
      const xs = known.map((i) => x[i]);
      traces.push({ x: [...xs, ...[...xs].reverse()], y: [...known.map((i) => line.high[i]),
        ...[...known].reverse().map((i) => line.low[i])], fill: "toself", fillcolor: translucent(colour),
        mode: "lines", line: { width: 0 }, hoverinfo: "skip", showlegend: false, legendgroup: bot, name: `${bot} 95%` });
      traces.push({ x: xs, y: known.map((i) => line.rating[i]), name: bot, legendgroup: bot, mode: "lines+markers",
        line: { color: colour }, meta: "rating",
        hovertemplate: `${bot}<br>%{y:.0f}<extra>${over === "time" ? "%{x}" : "after %{x} units"}</extra>` });
    });
    return box("rating-history", traces, { title: { text: title, font: { size: 14 } },
      xaxis: { title: { text: over === "time" ? "time" : "units played" } }, yaxis: { title: { text: "rating" } } });
  }

  // The cross table as a heat map: the row bot's score % against the column bot, games on hover.
  function crossTable(cross) {
    const cell = {};
    cross.cells.forEach((c) => { cell[`${c.row}|${c.column}`] = c; });
    const at = (row, column) => cell[`${row}|${column}`];
    const z = cross.labels.map((row) => cross.labels.map((column) => {
      const c = at(row, column);
      return c && c.games ? Math.round(1000 * c.wins / c.games) / 10 : null;
    }));
    const games = cross.labels.map((row) => cross.labels.map((column) => (at(row, column) || {}).games || 0));
    const trace = { type: "heatmap", x: cross.labels, y: cross.labels, z, customdata: games, zmin: 0, zmax: 100,
      colorscale: [[0, "#b2182b"], [0.5, "#f7f7f7"], [1, "#1a7a3a"]], colorbar: { title: { text: "score %" } },
      hovertemplate: "%{y} against %{x}<br>%{z}% of %{customdata} games<extra></extra>" };
    return box("cross-table", [trace], { title: { text: "Head to head: the row bot's score %", font: { size: 14 } },
      yaxis: { autorange: "reversed" }, margin: { ...LAYOUT.margin, l: 160, b: 120 } });
  }

  // A bot's score % against each opponent in one arena (/api/bots/NAME/history "opponents").
  function opponents(arena, list) {
    const trace = { type: "bar", x: list.map((o) => `${o.opponent} (as ${o.bot})`),
      y: list.map((o) => (o.games ? Math.round(1000 * o.wins / o.games) / 10 : 0)), customdata: list.map((o) => o.games),
      marker: { color: "#5b2a1a" }, hovertemplate: "%{x}<br>%{y}% of %{customdata} games<extra></extra>" };
    const chart = box("opponents", [trace], { title: { text: `${arena}: score % by opponent`, font: { size: 14 } },
      yaxis: { range: [0, 100], title: { text: "score %" } } });
    chart.dataset.arena = arena;
    return chart;
  }

  // A bot's faults by day ([day, count] pairs).
  function faults(days) {
    const trace = { type: "bar", x: days.map(([day]) => day), y: days.map(([, n]) => n), marker: { color: "#a01010" },
      hovertemplate: "%{x}: %{y} faults<extra></extra>" };
    return box("faults", [trace], { title: { text: "Faults by day", font: { size: 14 } },
      xaxis: { type: "category" }, yaxis: { title: { text: "faults" }, rangemode: "tozero" } });
  }

  return { ratingHistory, crossTable, opponents, faults, drawAll };
})();
