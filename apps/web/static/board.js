// The FairyZero web board: draws any variant's board from its description (/api/variants/NAME),
// plays through the JSON API (docs/WEB.md), replays recorded games and plots a run's progress.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const ARMY_COLOURS = ["#fbfbf6", "#262626", "#c8372d", "#2f62c4", "#3b9a4a", "#d08a1e"];
const GLYPHS = { king: "\u265A", queen: "\u265B", rook: "\u265C", bishop: "\u265D", knight: "\u265E", pawn: "\u265F" };

const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let data;
  try { data = JSON.parse(text); } catch (e) { data = { error: text }; }
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// Where a cell is drawn: quarter turns of the board, 0 with the first rank at the bottom.
function place(board, file, rank, turns) {
  const f = board.files, r = board.ranks;
  switch (((turns % 4) + 4) % 4) {
    case 0: return [file, r - 1 - rank];
    case 1: return [rank, file];
    case 2: return [f - 1 - file, rank];
    default: return [r - 1 - rank, f - 1 - file];
  }
}

function pieceLabel(variant, man) {
  const type = variant.pieces[man.type];
  return type.name + (type.betza ? " (" + type.betza + ")" : "") + " of " + variant.armies[man.army];
}

// Draws `frame` (a position) of `variant` into `container`. view: turns, selected (cell name),
// targets (cell names), onCell(name), onHover(text).
function drawBoard(container, variant, frame, view) {
  const board = variant.board;
  const turns = view.turns || 0;
  const wide = turns % 2 === 0 ? board.files : board.ranks;
  const high = turns % 2 === 0 ? board.ranks : board.files;
  const margin = 0.45;
  const svg = element("svg", {
    viewBox: `${-margin} 0 ${wide + margin} ${high + margin}`,
    width: 64 * (wide + margin), height: 64 * (high + margin), role: "img",
    "aria-label": variant.title + " board",
  });
  const men = new Map(frame.men.map((m) => [m.cell, m]));
  const last = frame.last_move || {};
  const royalInCheck = new Set();
  if (frame.in_check) {
    const army = variant.seats[frame.seat_to_move].army;
    for (const m of frame.men) if (m.army === army && variant.pieces[m.type].royal) royalInCheck.add(m.cell);
  }
  const locked = new Map((frame.locks || []).map((l) => [l.cell, l]));
  for (const cell of board.cells) {
    if (!cell.exists) continue;
    const [x, y] = place(board, cell.file, cell.rank, turns);
    const shade = (cell.file + cell.rank) % 2 === 0 ? "dark" : "light";
    let cls = `cell ${shade}`;
    if (cell.bank !== undefined) cls += ` bank-${cell.bank % 4}`;
    if (cell.name === last.from || cell.name === last.to) cls += " last";
    if (cell.name === view.selected) cls += " selected";
    const targeted = (view.targets || []).includes(cell.name);
    if (targeted) cls += " target";
    const square = element("rect", { x, y, width: 1, height: 1, class: cls, "data-cell": cell.name }, svg);
    element("title", {}, square).textContent = cell.name;
    if (royalInCheck.has(cell.name)) element("rect", { x, y, width: 1, height: 1, class: "check" }, svg);
    const man = men.get(cell.name);
    if (man) drawMan(svg, variant, man, x, y);
    if (locked.has(cell.name)) {
      const lock = element("text", { x: x + 0.05, y: y + 0.3, class: "lock" }, svg);
      lock.textContent = "\u{1F512}";
      element("title", {}, lock).textContent = "locked: the Rose may not move yet";
    }
    if (targeted) element("circle", { cx: x + 0.5, cy: y + 0.5, r: man ? 0.45 : 0.16, class: "target-dot" }, svg);
    const hit = element("rect", { x, y, width: 1, height: 1, fill: "transparent", "data-cell": cell.name }, svg);
    hit.addEventListener("click", () => view.onCell && view.onCell(cell.name));
    if (man) hit.addEventListener("mouseenter", () => view.onHover && view.onHover(pieceLabel(variant, man)));
    element("title", {}, hit).textContent = cell.name + (man ? ": " + pieceLabel(variant, man) : "");
  }
  // A zone the page was asked to show (promotion zones, camps, river sections), outlined.
  for (const name of (board.zones[view.zone] || [])) {
    const cell = board.cells.find((c) => c.name === name);
    if (!cell) continue;
    const [x, y] = place(board, cell.file, cell.rank, turns);
    element("rect", { x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, class: "zone" }, svg);
  }
  // The author's coordinates: file names along the bottom, rank names down the side.
  for (let file = 0; file < board.files; ++file) {
    const [x, y] = place(board, file, turns === 2 ? board.ranks - 1 : 0, turns);
    const label = element("text", { class: "coordinate" }, svg);
    if (turns % 2 === 0) { label.setAttribute("x", x + 0.42); label.setAttribute("y", high + 0.32); }
    else { label.setAttribute("x", -0.4); label.setAttribute("y", y + 0.58); }
    label.textContent = board.file_names[file] || "";
  }
  for (let rank = 0; rank < board.ranks; ++rank) {
    const [x, y] = place(board, 0, rank, turns);
    const label = element("text", { class: "coordinate" }, svg);
    if (turns % 2 === 0) { label.setAttribute("x", -0.4); label.setAttribute("y", y + 0.58); }
    else { label.setAttribute("x", x + 0.4); label.setAttribute("y", high + 0.32); }
    label.textContent = board.rank_names[rank] || "";
  }
  container.replaceChildren(svg);
}

function drawMan(svg, variant, man, x, y) {
  const type = variant.pieces[man.type];
  const colour = ARMY_COLOURS[man.army % ARMY_COLOURS.length];
  const group = element("g", { class: "man", "data-man": man.text }, svg);
  const glyph = GLYPHS[type.name];
  if (glyph) {
    const text = element("text", {
      x: x + 0.5, y: y + 0.55, class: "glyph", fill: colour, stroke: man.army === 1 ? "#ddd" : "#222",
      "stroke-width": 0.025, "paint-order": "stroke",
    }, group);
    text.textContent = glyph;
  } else {
    element("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.38, fill: colour, stroke: "#222", "stroke-width": 0.03 }, group);
    const text = element("text", {
      x: x + 0.5, y: y + 0.45, class: "letter", fill: man.army === 0 ? "#222" : "#f4f4f4",
    }, group);
    text.textContent = type.letter;
    const name = element("text", {
      x: x + 0.5, y: y + 0.8, class: "man-name", fill: man.army === 0 ? "#222" : "#f4f4f4",
    }, group);
    name.textContent = type.name.length > 9 ? type.name.slice(0, 8) + "." : type.name;
  }
}

// ---- Play ----

const play = { id: null, variant: null, state: null, turns: 0, selected: null, drop: null, busy: false };

function moverArmy() { return play.variant.seats[play.state.seat_to_move].army; }

function movesFrom(cell) { return play.state.legal_moves.filter((m) => m.from === cell); }

function targetsOf() {
  if (play.drop !== null)
    return play.state.legal_moves.filter((m) => m.drop === play.drop).map((m) => m.to);
  if (play.selected) return movesFrom(play.selected).map((m) => m.to);
  return [];
}

function isHumanToMove() {
  return play.state && !play.state.outcome && play.state.players[play.state.seat_to_move] === "human";
}

function onCell(cell) {
  if (!isHumanToMove() || play.busy) return;
  const candidates = play.state.legal_moves.filter((m) =>
    m.to === cell && (play.drop !== null ? m.drop === play.drop : m.from === play.selected));
  if (candidates.length === 1) return sendMove(candidates[0].text);
  if (candidates.length > 1) return choosePromotion(candidates);
  const man = play.state.men.find((m) => m.cell === cell);
  play.drop = null;
  play.selected = man && man.army === moverArmy() && movesFrom(cell).length ? cell : null;
  render();
}

function choosePromotion(candidates) {
  const box = $("promotion");
  box.replaceChildren(document.createTextNode("Promote to: "));
  for (const m of candidates) {
    const b = document.createElement("button");
    b.textContent = m.promotion === undefined ? "no promotion" : play.variant.pieces[m.promotion].name;
    b.addEventListener("click", () => { box.hidden = true; sendMove(m.text); });
    box.appendChild(b);
  }
  box.hidden = false;
}

async function sendMove(text) {
  $("promotion").hidden = true;
  try {
    play.state = await api("POST", `/api/games/${play.id}/move`, { move: text });
    play.selected = null;
    play.drop = null;
    showError();
    render();
    nextTurn();
  } catch (e) { showError(e); }
}

function drawHands(topId, bottomId, variant, frame, turns, selectable) {
  const armies = variant.armies.map((name, army) => army);
  const bottomArmy = turns === 2 ? 1 : 0;
  const fill = (id, list) => {
    const box = $(id);
    box.replaceChildren();
    for (const army of list) {
      const hand = frame.hands[army] || {};
      for (const [type, count] of Object.entries(hand)) {
        const b = document.createElement("button");
        b.textContent = `${variant.pieces[type].letter}\u00D7${count}`;
        b.title = `${variant.armies[army]}'s ${variant.pieces[type].name} in hand`;
        if (selectable && army === moverArmy()) {
          if (play.drop === Number(type)) b.classList.add("selected");
          b.addEventListener("click", () => { play.drop = Number(type); play.selected = null; render(); });
        } else b.disabled = !selectable;
        box.appendChild(b);
      }
    }
  };
  fill(bottomId, armies.filter((a) => a === bottomArmy));
  fill(topId, armies.filter((a) => a !== bottomArmy));
}

function describeOutcome(variant, outcome) {
  let text = outcome.termination + ": " +
    variant.seats.map((s, i) => `${s.name} ${outcome.score[i]}`).join(", ");
  if (outcome.rank)
    text += "; ranking " + variant.seats.map((s, i) => `${s.name} #${outcome.rank[i]}`).join(", ");
  return text;
}

function renderSeats(container, variant, state) {
  container.replaceChildren();
  variant.seats.forEach((seat, i) => {
    const line = document.createElement("div");
    const info = state.seats[i];
    line.textContent = `${seat.name} (${variant.armies[seat.army]}, team ${seat.team + 1}): ` +
      (state.players ? state.players[i] : "") + (info.restricted ? ", on its side" : "") +
      (info.in_game ? "" : `, out (${info.dropout_order + 1}.)`);
    if (i === state.seat_to_move && !state.outcome) line.classList.add("to-move");
    if (!info.in_game) line.classList.add("out");
    container.appendChild(line);
  });
}

function render() {
  const state = play.state, variant = play.variant;
  drawBoard($("board"), variant, state, {
    turns: play.turns, selected: play.selected, targets: targetsOf(), onCell, zone: $("zone").value,
    onHover: (text) => { $("piece-info").textContent = text; },
  });
  drawHands("hand-top", "hand-bottom", variant, state, play.turns, isHumanToMove());
  $("status").textContent = state.outcome ? describeOutcome(variant, state.outcome)
    : `${variant.seats[state.seat_to_move].name} to move` + (state.in_check ? " (in check)" : "");
  renderSeats($("seats"), variant, state);
  const list = $("moves");
  list.replaceChildren(...state.moves.map((m) => { const li = document.createElement("li"); li.textContent = m; return li; }));
  list.scrollTop = list.scrollHeight;
  $("fen").value = state.fen;
  $("record").href = `/api/games/${play.id}/record`;
  // Moves without a cell (drop out, pass) get a button when a person must make one.
  const special = isHumanToMove() ? state.legal_moves.filter((m) => m.drop_out || m.pass) : [];
  const box = $("promotion");
  box.hidden = true;
  if (special.length) {
    box.replaceChildren(...special.map((m) => {
      const b = document.createElement("button");
      b.textContent = m.drop_out ? "Drop out" : "Pass";
      b.addEventListener("click", () => sendMove(m.text));
      return b;
    }));
    box.hidden = false;
  }
}

function showSearch(search) {
  if (!search) return;
  const lines = search.lines.map((l, i) =>
    `${i + 1}. ${l.move}  ${l.visits} visits  value ${l.value.toFixed(3)}  W/D/L ` +
    l.wdl.map((x) => Math.round(100 * x)).join("/") + `  ${l.pv.join(" ")}`);
  $("search").textContent = `${search.playouts} playouts in ${search.seconds.toFixed(1)} s` +
    (search.proven ? " (proven)" : "") + "\n" + lines.join("\n");
}

async function nextTurn() {
  if (!play.state || play.state.outcome || isHumanToMove() || play.busy) return;
  const id = play.id;
  play.busy = true;
  $("stop").disabled = false;
  try {
    const answer = await api("POST", `/api/games/${id}/bot`, { visits: Number($("bot-visits").value) || 400 });
    if (id !== play.id) return;
    play.state = answer.state;
    showSearch(answer.search);
    showError();
  } catch (e) { showError(e); return; } finally { play.busy = false; $("stop").disabled = true; }
  render();
  setTimeout(nextTurn, 50);
}

async function newGame() {
  const seats = [...document.querySelectorAll("#seat-choices select")].map((s) => s.value);
  const body = { variant: $("variant").value, seats };
  if ($("start-fen").value.trim()) body.fen = $("start-fen").value.trim();
  try {
    const game = await api("POST", "/api/games", body);
    Object.assign(play, { id: game.id, variant: game.variant, state: game.state, selected: null, drop: null, turns: 0 });
    $("zone").replaceChildren(new Option("no zone", ""),
      ...Object.keys(game.variant.board.zones).map((z) => new Option(z, z)));
    $("search").textContent = "";
    $("promotion").hidden = true;
    showError();
    render();
    nextTurn();
  } catch (e) { showError(e); }
}

async function chooseVariant() {
  const variant = await api("GET", `/api/variants/${$("variant").value}`);
  const bots = await api("GET", "/api/bots");
  const runs = await api("GET", "/api/runs");
  const options = ["human", "uniform", "material", ...bots.map((b) => b.name),
    ...runs.filter((r) => r.checkpoint).map((r) => "run:" + r.checkpoint)];
  const box = $("seat-choices");
  box.replaceChildren();
  variant.seats.forEach((seat, i) => {
    const label = document.createElement("label");
    label.textContent = seat.name + " ";
    const select = document.createElement("select");
    select.id = `seat-${i}`;
    for (const o of options) select.add(new Option(o, o));
    select.value = i === 0 ? "human" : "material";
    label.appendChild(select);
    box.appendChild(label);
  });
  box.dataset.variant = variant.name;  // the choices are this variant's (tests wait for it)
}

async function analyse() {
  try {
    $("stop").disabled = false;
    const answer = await api("POST", `/api/games/${play.id}/analyse`, { visits: Number($("bot-visits").value) || 400, lines: 5 });
    showSearch(answer.search);
    showError();
  } catch (e) { showError(e); } finally { $("stop").disabled = true; }
}

// ---- Replay ----

const replay = { data: null, ply: 0, turns: 0 };

function renderReplay() {
  const data = replay.data;
  if (!data) return;
  const frame = data.frames[replay.ply];
  drawBoard($("replay-board"), data.variant, frame, { turns: replay.turns });
  drawHands("replay-hand-top", "replay-hand-bottom", data.variant, frame, replay.turns, false);
  $("replay-ply").textContent = `${replay.ply} / ${data.frames.length - 1}`;
  $("replay-status").textContent = `${data.label} — ${data.termination}`;
  const list = $("replay-moves");
  list.replaceChildren(...data.frames.slice(1).map((f, i) => {
    const li = document.createElement("li");
    li.textContent = f.last_move.text;
    if (i + 1 === replay.ply) li.classList.add("current");
    li.addEventListener("click", () => { replay.ply = i + 1; renderReplay(); });
    return li;
  }));
}

async function loadRecordGames() {
  const file = $("record-file").value;
  if (!file) return;
  try {
    const records = await api("GET", `/api/records?file=${encodeURIComponent(file)}`);
    const select = $("record-game");
    select.replaceChildren(...records.games.map((g, i) =>
      new Option(`${i + 1}: ${g.label} ${g.termination} (${g.plies} plies)`, i + 1)));
  } catch (e) { showError(e); }
}

async function loadReplay() {
  try {
    replay.data = await api("GET", `/api/replay?file=${encodeURIComponent($("record-file").value)}&game=${$("record-game").value}`);
    replay.ply = 0;
    renderReplay();
  } catch (e) { $("replay-status").textContent = e.message; }
}

// ---- Runs ----

const loaded = { runs: null };

// A line plot of one column against the first, drawn in SVG.
function plot(title, xs, ys) {
  const w = 320, h = 180, pad = 34;
  const svg = element("svg", { width: w, height: h, class: "plot", viewBox: `0 0 ${w} ${h}` });
  const points = xs.map((x, i) => [x, ys[i]]).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const head = element("text", { x: pad, y: 14, "font-size": 12 }, svg);
  head.textContent = title;
  if (points.length < 2) return svg;
  const [x0, x1] = [Math.min(...points.map((p) => p[0])), Math.max(...points.map((p) => p[0]))];
  const [y0, y1] = [Math.min(...points.map((p) => p[1])), Math.max(...points.map((p) => p[1]))];
  const sx = (x) => pad + (w - pad - 8) * (x - x0) / (x1 - x0 || 1);
  const sy = (y) => h - 20 - (h - 40) * (y - y0) / (y1 - y0 || 1);
  element("polyline", {
    points: points.map(([x, y]) => `${sx(x)},${sy(y)}`).join(" "), fill: "none", stroke: "#2f62c4", "stroke-width": 1.5,
  }, svg);
  for (const [value, y] of [[y1, sy(y1)], [y0, sy(y0)]]) {
    const label = element("text", { x: 2, y: y + 4, "font-size": 10 }, svg);
    label.textContent = Number(value.toPrecision(3));
  }
  const end = element("text", { x: w - 40, y: h - 4, "font-size": 10 }, svg);
  end.textContent = x1;
  return svg;
}

async function loadRun() {
  const box = $("run-progress");
  try {
    const run = await api("GET", `/api/runs/progress?run=${encodeURIComponent($("run").value)}`);
    box.replaceChildren();
    const head = document.createElement("h2");
    head.textContent = `${run.name} (${run.variant || "?"})`;
    box.appendChild(head);
    const listed = (loaded.runs || []).find((r) => r.name === run.name);
    for (const image of listed ? listed.images : []) {
      const img = document.createElement("img");
      img.src = `/api/files?path=${encodeURIComponent(image)}`;
      img.alt = image;
      img.className = "figure";
      box.appendChild(img);
    }
    for (const [name, table] of Object.entries(run.tables)) {
      const title = document.createElement("h3");
      title.textContent = `${name}.csv: ${table.rows.length} rows`;
      box.appendChild(title);
      const plots = document.createElement("div");
      plots.className = "plots";
      const xs = table.rows.map((r) => r[0]);
      table.columns.slice(1, 13).forEach((column, k) => {
        const ys = table.rows.map((r) => r[k + 1]);
        if (ys.some((y) => typeof y === "number")) plots.appendChild(plot(`${column} by ${table.columns[0]}`, xs, ys));
      });
      box.appendChild(plots);
    }
  } catch (e) { box.textContent = e.message; }
}

async function loadRuns() {
  const runs = await api("GET", "/api/runs");
  $("run").replaceChildren(...runs.filter((r) => r.training || r.images.length).map((r) => new Option(r.name, r.name)));
  loaded.runs = runs;
  const files = runs.flatMap((r) => r.records);
  $("record-file").replaceChildren(...files.map((f) => new Option(f, f)));
  if (files.length) loadRecordGames();
}

// ---- Wiring ----

function showTab(name) {
  for (const page of document.querySelectorAll(".page")) page.hidden = page.id !== name;
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.tab === name);
}

async function start() {
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  const variants = await api("GET", "/api/variants");
  $("variant").replaceChildren(...variants.map((v) => new Option(`${v.title} (${v.name})`, v.name)));
  $("variant").value = variants.some((v) => v.name === "chess") ? "chess" : variants[0].name;
  $("variant").addEventListener("change", chooseVariant);
  await chooseVariant();
  $("new").addEventListener("click", newGame);
  $("rotate").addEventListener("click", () => { play.turns = (play.turns + 1) % 4; render(); });
  $("flip").addEventListener("click", () => { play.turns = (play.turns + 2) % 4; render(); });
  $("undo").addEventListener("click", async () => {
    try { play.state = await api("POST", `/api/games/${play.id}/undo`); play.selected = null; render(); } catch (e) { showError(e); }
  });
  $("resign").addEventListener("click", async () => {
    try { play.state = await api("POST", `/api/games/${play.id}/resign`, { seat: play.state.seat_to_move }); render(); } catch (e) { showError(e); }
  });
  $("analyse").addEventListener("click", analyse);
  $("zone").addEventListener("change", render);
  $("stop").addEventListener("click", () => api("POST", `/api/games/${play.id}/stop`).catch(showError));
  $("record-file").addEventListener("change", loadRecordGames);
  $("load-replay").addEventListener("click", loadReplay);
  $("replay-first").addEventListener("click", () => { replay.ply = 0; renderReplay(); });
  $("replay-back").addEventListener("click", () => { replay.ply = Math.max(0, replay.ply - 1); renderReplay(); });
  $("replay-forward").addEventListener("click", () => {
    if (replay.data) replay.ply = Math.min(replay.data.frames.length - 1, replay.ply + 1); renderReplay();
  });
  $("replay-last").addEventListener("click", () => { if (replay.data) replay.ply = replay.data.frames.length - 1; renderReplay(); });
  $("replay-rotate").addEventListener("click", () => { replay.turns = (replay.turns + 1) % 4; renderReplay(); });
  $("load-run").addEventListener("click", loadRun);
  await loadRuns().catch(showError);
  await newGame();
}

start().catch(showError);
