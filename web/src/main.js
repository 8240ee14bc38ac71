// The analysis board of `score4 serve`: one game, drawn in 3-D and as four layers, each
// column's value refined while the engine thinks, play against score4 or between two people,
// undo and redo, the move string editable and shared as `?pos=`.

import { ApiError, proofStatus, streamAnalysis } from "./api.js";
import { Board3D } from "./board3d.js";
import { COLUMN_DIGITS, columnOf, Game } from "./game.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

const state = {
  game: new Game(),
  redo: [],
  /** "two" (two people, with hints), "X" or "O" (the person plays that side against score4). */
  mode: ["X", "O"].includes(params.get("play")) ? params.get("play") : "two",
  seconds: Number(params.get("time")) > 0 ? Number(params.get("time")) : 2,
  hints: params.get("hints") !== "0",
  analysis: null, // { pos, document, exact, done }
  running: null, // AbortController of the analysis under way
  error: null,
};

/** Labels of a column value: long for the panel, short for the 3-D view. */
function describe(entry) {
  const win = entry.wdl === 1 || (entry.kind === "unknown" && entry.lower > 0);
  const loss = entry.wdl === -1 || (entry.kind === "unknown" && entry.upper < 0);
  const tone = win ? "win" : loss ? "loss" : entry.wdl === 0 ? "draw" : "open";
  if (entry.kind === "exact") {
    const text = entry.score > 0 ? `+${entry.score}` : String(entry.score);
    const meaning =
      entry.score > 0
        ? `a win with its ${33 - entry.score}th stone`
        : entry.score < 0
          ? `a loss to the opponent's ${33 + entry.score}th stone`
          : "a draw";
    return { text, short: text, tone, title: `exact score ${text}: ${meaning}` };
  }
  if (entry.kind === "wdl") {
    const word = { 1: "win", 0: "draw", "-1": "loss" }[entry.wdl];
    return {
      text: word,
      short: word[0].toUpperCase(),
      tone,
      title: `${word}; the score lies in [${entry.lower}, ${entry.upper}]`,
    };
  }
  // Unknown: what is proven of the score, if anything beyond the trivial, and the estimate
  // (its own scale) only in the tooltip.
  const text = win ? `≥ ${entry.lower}` : loss ? `≤ ${entry.upper}` : "?";
  return {
    text,
    short: win ? "W?" : loss ? "L?" : "?",
    tone: "open",
    title: `not solved yet: the score lies in [${entry.lower}, ${entry.upper}]${
      entry.estimate === undefined ? "" : `; heuristic estimate ${entry.estimate} (its own scale)`
    }`,
    detail: `${entry.lower}..${entry.upper}`,
  };
}

const TONE_COLOURS = {
  win: ["#ffffff", "#1f8a4c"],
  draw: ["#ffffff", "#6b7280"],
  loss: ["#ffffff", "#c2412d"],
  open: ["#1f2937", "#f3f4f6"],
};

// ---- The page's parts ------------------------------------------------------------------

const board = new Board3D($("board3d"), (column) => humanPlays(column));
// For the browser test (web/tests/board.mjs), which clicks rods where the view draws them.
window.score4Board = board;

function buildLayers() {
  const layers = $("layers");
  for (let z = 0; z < 4; z++) {
    const figure = document.createElement("figure");
    const grid = document.createElement("div");
    grid.className = "grid";
    for (let y = 3; y >= 0; y--)
      for (let x = 0; x < 4; x++) {
        const cell = document.createElement("button");
        const column = 4 * y + x;
        cell.className = "cell";
        cell.dataset.cell = String(16 * z + column);
        cell.dataset.column = COLUMN_DIGITS[column];
        cell.title = `column ${COLUMN_DIGITS[column]}, layer ${z + 1}`;
        cell.addEventListener("click", () => humanPlays(column));
        grid.appendChild(cell);
      }
    const caption = document.createElement("figcaption");
    caption.textContent = z === 0 ? "layer 1 (bottom)" : z === 3 ? "layer 4 (top)" : `layer ${z + 1}`;
    figure.append(grid, caption);
    layers.appendChild(figure);
  }
  const values = $("values");
  for (let y = 3; y >= 0; y--)
    for (let x = 0; x < 4; x++) {
      const column = 4 * y + x;
      const button = document.createElement("button");
      button.className = "value";
      button.dataset.column = COLUMN_DIGITS[column];
      button.innerHTML =
        `<span class="digit">${COLUMN_DIGITS[column]}</span>` +
        `<span class="score"></span><span class="detail"></span>`;
      button.addEventListener("click", () => humanPlays(column));
      values.appendChild(button);
    }
}

// ---- Playing ---------------------------------------------------------------------------

function engineSide() {
  return state.mode === "two" ? null : state.mode === "X" ? "O" : "X";
}

function enginesTurn() {
  return !state.game.over && state.game.mover === engineSide();
}

function humanPlays(column) {
  if (enginesTurn()) return flash("score4 is to move");
  play(column);
}

function play(column) {
  const refused = state.game.refusal(column);
  if (refused) return flash(refused);
  state.game.play(column);
  state.redo = [];
  changed(true);
}

function undo() {
  if (state.game.moves.length === 0) return;
  // Against score4, take back to the person's turn.
  do {
    const moves = state.game.moves.slice();
    state.redo.push(moves.pop());
    state.game = Game.parse(moves.map((c) => COLUMN_DIGITS[c]).join(""));
  } while (enginesTurn() && state.game.moves.length > 0);
  changed(false);
}

function redo() {
  if (state.redo.length === 0) return;
  do {
    state.game.play(state.redo.pop());
  } while (enginesTurn() && state.redo.length > 0);
  changed(true);
}

function setPosition(text) {
  const game = Game.parse(text);
  if (game instanceof Error) {
    $("moves-error").textContent = game.message;
    return false;
  }
  $("moves-error").textContent = "";
  state.game = game;
  state.redo = [];
  changed(false);
  return true;
}

/** The move string as typed: Enter and then the blur's change event bring the same text twice,
 * and the position already shown starts no second analysis. */
function enterPosition(text) {
  const game = Game.parse(text);
  if (game instanceof Error || game.toString() !== state.game.toString()) return setPosition(text);
  $("moves-error").textContent = "";
  if (document.activeElement !== $("moves")) $("moves").value = game.toString();
  return true;
}

function flash(message) {
  $("message").textContent = message;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => ($("message").textContent = ""), 2500);
}

// ---- Showing ---------------------------------------------------------------------------

function changed(animate) {
  const game = state.game;
  const pos = game.toString();
  const query = new URLSearchParams();
  if (pos) query.set("pos", pos);
  if (state.mode !== "two") query.set("play", state.mode);
  if (params.has("time")) query.set("time", String(state.seconds));
  if (!state.hints) query.set("hints", "0");
  const search = query.toString();
  history.replaceState(null, "", search ? `?${search}` : location.pathname);
  if (document.activeElement !== $("moves")) $("moves").value = pos;
  board.show(game, animate);
  for (const cell of document.querySelectorAll(".cell")) {
    const stone = game.cells[Number(cell.dataset.cell)];
    cell.classList.toggle("x", stone === "X");
    cell.classList.toggle("o", stone === "O");
    cell.classList.toggle("last", Number(cell.dataset.cell) === game.lastCell());
    cell.classList.toggle("winning", Boolean(game.winningLine?.includes(Number(cell.dataset.cell))));
  }
  $("undo").disabled = game.moves.length === 0;
  $("redo").disabled = state.redo.length === 0;
  $("stones").textContent = `${game.moves.length} stones`;
  document.body.dataset.pos = pos;
  state.analysis = null;
  state.error = null;
  showAnalysis();
  analyse();
}

function showStatus() {
  const game = state.game;
  let text;
  if (game.winner) text = `${game.winner} wins`;
  else if (game.over) text = "a draw: the board is full";
  else if (enginesTurn()) text = `${game.mover} to move: score4 is thinking…`;
  else text = `${game.mover} to move${state.mode === "two" ? "" : " (you)"}`;
  $("status").textContent = text;
  document.body.dataset.state = game.over ? "over" : enginesTurn() ? "thinking" : "waiting";
}

function showAnalysis() {
  showStatus();
  const analysis = state.analysis;
  const show = state.hints && analysis;
  const byColumn = new Map();
  if (analysis) for (const entry of analysis.document.columns) byColumn.set(entry.column, entry);
  const labels = [];
  for (const button of document.querySelectorAll(".value")) {
    const column = columnOf(button.dataset.column);
    const entry = show ? byColumn.get(button.dataset.column) : null;
    const full = state.game.heights[column] >= 4 || state.game.over;
    button.disabled = full;
    const score = button.querySelector(".score");
    button.classList.remove("win", "draw", "loss", "open", "best");
    if (entry) {
      const label = describe(entry);
      score.textContent = label.text;
      button.querySelector(".detail").textContent = label.detail || "";
      button.title = label.title;
      button.classList.add(label.tone);
      if (analysis.document.best === entry.column) button.classList.add("best");
      const [colour, background] = TONE_COLOURS[label.tone];
      labels[column] = { text: label.short, colour, background };
    } else {
      score.textContent = full ? "" : show || !state.hints ? "" : "…";
      button.querySelector(".detail").textContent = "";
      button.title = full ? `column ${button.dataset.column} is full` : "";
      labels[column] = null;
    }
  }
  board.showValues(labels);
  const best = $("best");
  if (state.error) {
    best.textContent = state.error;
  } else if (show) {
    const doc = analysis.document;
    const line = doc.line ? doc.line.split("").join(" ") : "";
    best.innerHTML = "";
    best.append(
      `best: ${doc.best}  · line: ${line || "—"}${doc.proven_line ? " (proven)" : ""}  · `,
      `${analysis.done ? "done" : "thinking"} after ${doc.seconds.toFixed(2)} s`,
    );
  } else {
    best.textContent = state.game.over ? "" : state.hints ? "analysing…" : "hints are off";
  }
  document.body.dataset.analysis = analysis ? (analysis.done ? "done" : "partial") : "none";
}

// ---- The engine ------------------------------------------------------------------------

async function analyse() {
  if (state.running) state.running.abort();
  state.running = null;
  const game = state.game;
  if (game.over) return;
  const engineMoves = enginesTurn();
  if (!state.hints && !engineMoves) return;
  const pos = game.toString();
  const controller = new AbortController();
  state.running = controller;
  try {
    const last = await streamAnalysis(pos, state.seconds, controller.signal, (document) => {
      if (state.game.toString() !== pos) return;
      state.analysis = { pos, document, done: false };
      showAnalysis();
    });
    if (state.game.toString() !== pos || state.running !== controller) return;
    state.running = null;
    if (last) state.analysis = { pos, document: last, done: true };
    showAnalysis();
    if (engineMoves && last && enginesTurn()) play(columnOf(last.best));
  } catch (error) {
    if (error.name === "AbortError" || state.running !== controller) return;
    state.running = null;
    if (error instanceof ApiError && error.status === 503) {
      state.error = "the server is busy: trying again in a second";
      showAnalysis();
      setTimeout(() => state.game.toString() === pos && analyse(), 1000);
    } else {
      state.error = `the analysis failed: ${error.message}`;
      showAnalysis();
    }
  }
}

// ---- The proof run ---------------------------------------------------------------------

async function pollProof() {
  let status;
  try {
    status = await proofStatus();
  } catch (error) {
    $("proof-body").textContent = `cannot read the proof run: ${error.message}`;
    return setTimeout(pollProof, 5000);
  }
  if (status === null) return; // no --store: the panel stays hidden
  $("proof").hidden = false;
  const body = $("proof-body");
  body.innerHTML = "";
  const summary = document.createElement("p");
  const lastRun = status.runs[status.runs.length - 1];
  summary.textContent =
    `${status.store}: ${status.positions} positions (${status.settled} settled), ` +
    `${status.nodes.toLocaleString("en")} nodes; recent rate ` +
    `${(status.recent_nodes_per_second / 1e6).toFixed(2)} M nodes/s` +
    (lastRun ? `; last run: ${lastRun.outcome}` : "");
  body.append(summary);
  for (const root of status.roots) {
    const heading = document.createElement("h3");
    const value = root.value === 1 ? "the first player wins" : root.value === 0 ? "the first player does not win" : "open";
    const link = document.createElement("a");
    link.href = `?pos=${root.position}`;
    link.textContent = root.position;
    heading.append(link, `: ${value}`);
    const table = document.createElement("table");
    table.innerHTML = "<tr><th>move</th><th>status</th><th>nodes</th></tr>";
    for (const move of root.moves) {
      const row = document.createElement("tr");
      row.className = move.status.replace(/ /g, "-");
      row.innerHTML = `<td>${move.column}</td><td>${move.status}</td><td>${move.nodes.toLocaleString("en")}</td>`;
      table.append(row);
    }
    body.append(heading, table);
  }
  setTimeout(pollProof, 5000);
}

// ---- Controls --------------------------------------------------------------------------

function setupControls() {
  $("mode").value = state.mode;
  $("mode").addEventListener("change", () => {
    state.mode = $("mode").value;
    changed(false);
  });
  const time = $("time");
  if (![...time.options].some((option) => Number(option.value) === state.seconds)) {
    time.add(new Option(`${state.seconds} s`, String(state.seconds)));
  }
  time.value = String(state.seconds);
  time.addEventListener("change", () => {
    state.seconds = Number(time.value);
    params.set("time", time.value);
    changed(false);
  });
  $("hints").checked = state.hints;
  $("hints").addEventListener("change", () => {
    state.hints = $("hints").checked;
    changed(false);
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("new").addEventListener("click", () => setPosition(""));
  $("share").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      flash("the link is copied");
    } catch {
      flash(location.href);
    }
  });
  const moves = $("moves");
  moves.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      enterPosition(moves.value);
      moves.blur();
    }
    event.stopPropagation();
  });
  moves.addEventListener("change", () => enterPosition(moves.value));
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const column = event.key.length === 1 ? columnOf(event.key) : -1;
    if (column >= 0) {
      humanPlays(column);
      event.preventDefault();
    } else if (event.key === "ArrowLeft" || event.key === "Backspace") {
      undo();
      event.preventDefault();
    } else if (event.key === "ArrowRight") {
      redo();
      event.preventDefault();
    }
  });
}

buildLayers();
setupControls();
if (!setPosition(params.get("pos") || "")) changed(false);
pollProof();
