// The browser test of the analysis board: a real headless Chromium (Debian's, driven by
// playwright-core) against a real `score4 serve` on 127.0.0.1, started by the caller
// (crates/cli/tests/browser.rs). Usage: node tests/board.mjs URL SCREENSHOT_DIR
// It exits non-zero, naming the step, when anything the page should do does not happen, or
// when the page logs an error.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [url, shots] = process.argv.slice(2);
if (!url || !shots) {
  console.error("usage: node tests/board.mjs URL SCREENSHOT_DIR");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });

/** X to move, 44 stones (bench/positions/d44.txt, its first line): the game to finish. */
const ENDGAME = "33876243E775270CBD9ACEFDB39E41E4085B81D564AF";
const REPORT = "0FC3484B7";

const launchOptions = {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
  ],
};
// Chromium has been seen to crash while starting on a loaded machine: up to three tries.
let browser;
for (let attempt = 1; !browser; attempt++) {
  try {
    browser = await chromium.launch(launchOptions);
  } catch (error) {
    if (attempt === 3) throw error;
    console.error(`Chromium did not start (try ${attempt} of 3): ${error.message.split("\n")[0]}`);
  }
}
const problems = [];
let step = "start";
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
page.setDefaultTimeout(30_000);
page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
// A refused request by its step and address; Chromium's console line names neither.
page.on("response", (response) => {
  if (response.status() >= 400) problems.push(`${step}: ${response.status()} from ${response.url()}`);
});
page.on("console", (message) => {
  const text = message.text();
  if (message.type() === "error" && !text.includes("the server responded with a status of")) {
    problems.push(`console error: ${text}`);
  }
});

function check(condition, what) {
  if (!condition) throw new Error(`${step}: ${what}`);
}
async function pos() {
  return page.evaluate(() => document.body.dataset.pos);
}
async function waitPos(expected) {
  await page.waitForFunction((p) => document.body.dataset.pos === p, expected);
}
async function stones3d() {
  return Number(await page.getAttribute("#board3d", "data-stones"));
}
async function shot(name) {
  await page.screenshot({ path: join(shots, `${name}.png`) });
}

try {
  step = "load the empty board";
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.state === "waiting");
  check((await page.locator("#board3d canvas").count()) === 1, "no 3-D canvas");
  check((await page.locator(".cell").count()) === 64, "the four layers do not have 64 cells");
  const webgl = await page.evaluate(() => {
    const canvas = document.querySelector("#board3d canvas");
    return Boolean(canvas.getContext("webgl2") || canvas.getContext("webgl"));
  });
  check(webgl, "no WebGL context");

  step = "play by clicking a cell of the 2-D layers";
  await page.click('.cell[data-cell="5"]');
  await waitPos("5");
  check(await page.locator('.cell[data-cell="5"]').evaluate((e) => e.classList.contains("x")), "no X stone on cell 5");

  step = "play by typing a column's digit";
  await page.keyboard.press("a");
  await waitPos("5A");
  check(await page.locator('.cell[data-cell="10"]').evaluate((e) => e.classList.contains("o")), "no O stone on cell 10");

  step = "play by clicking a rod of the 3-D view";
  const rod = await page.evaluate(() => window.score4Board.screenPoint(5));
  await page.mouse.click(rod.x, rod.y);
  await waitPos("5A5");
  check(await page.locator('.cell[data-cell="21"]').evaluate((e) => e.classList.contains("x")), "the stone did not land on cell 21");
  await page.waitForFunction(() => document.querySelector("#board3d").dataset.stones === "3");

  step = "the column values appear";
  await page.waitForFunction(() => {
    const scores = [...document.querySelectorAll(".value:not(:disabled) .score")];
    return scores.length === 16 && scores.every((s) => s.textContent.trim() !== "" && s.textContent !== "…");
  });
  await page.waitForFunction(() => document.body.dataset.analysis === "done", null, { timeout: 60_000 });
  check((await page.textContent("#best")).includes("best:"), "no best move shown");
  await shot("1-three-stones");

  step = "undo and redo with the arrow keys";
  await page.keyboard.press("ArrowLeft");
  await waitPos("5A");
  check((await stones3d()) === 2, "undo left the 3-D stone");
  await page.keyboard.press("ArrowRight");
  await waitPos("5A5");
  await page.click("#undo");
  await waitPos("5A");
  await page.click("#redo");
  await waitPos("5A5");

  step = "a full column is refused";
  await page.keyboard.type("55");
  await waitPos("5A555");
  await page.keyboard.press("5");
  await page.waitForFunction(() => document.querySelector("#message").textContent.includes("column 5 is full"));
  check((await pos()) === "5A555", "a fifth stone went into column 5");

  step = "edit the move string";
  await page.fill("#moves", "0fc3 484 b7");
  await page.press("#moves", "Enter");
  await waitPos(REPORT);
  check(new URL(page.url()).searchParams.get("pos") === REPORT, `the URL does not share the position: ${page.url()}`);
  await page.waitForFunction(() => document.querySelector("#board3d").dataset.stones === "9");
  await page.fill("#moves", "0FC3484B7G");
  await page.press("#moves", "Enter");
  await page.waitForFunction(() => document.querySelector("#moves-error").textContent.includes("not a column"));
  check((await pos()) === REPORT, "a bad move string changed the position");
  await page.waitForFunction(() => document.body.dataset.analysis !== "none");
  await shot("2-report-position");

  step = "the proof run's panel";
  await page.waitForSelector("#proof:not([hidden])");
  const proof = await page.textContent("#proof");
  check(proof.includes("0FC3484B7A") && proof.includes("the first player wins"), `the proof panel says: ${proof}`);

  step = "follow a ?pos= link";
  await page.goto(`${url}/?pos=${REPORT}A9`);
  await waitPos(`${REPORT}A9`);
  await page.waitForFunction(() => document.querySelector("#board3d").dataset.stones === "11");
  check((await page.textContent("#status")).startsWith("O to move"), "the link's side to move is wrong");

  step = "score4 moves first when the person plays O";
  await page.goto(`${url}/?play=O&time=0.5`);
  await page.waitForFunction(() => (document.body.dataset.pos || "").length === 1, null, { timeout: 60_000 });
  await page.waitForFunction(() => document.body.dataset.state === "waiting");
  check((await page.textContent("#status")).startsWith("O to move (you)"), "it is not O's turn");
  check((await page.inputValue("#mode")) === "O", "the mode is not read from the link");

  step = "play a game to its end against score4";
  await page.goto(`${url}/?pos=${ENDGAME}&play=X&time=0.5`);
  await waitPos(ENDGAME);
  for (let moves = 0; moves < 30; moves++) {
    await page.waitForFunction(() => ["waiting", "over"].includes(document.body.dataset.state), null, { timeout: 60_000 });
    if ((await page.evaluate(() => document.body.dataset.state)) === "over") break;
    const before = await pos();
    // The best move once the values are there; a person's click, not the engine's.
    await page.waitForFunction(() => document.body.dataset.analysis === "done", null, { timeout: 60_000 });
    const column = await page.evaluate(
      () => (document.querySelector(".value.best") || document.querySelector(".value:not(:disabled)")).dataset.column,
    );
    await page.click(`.value[data-column="${column}"]`);
    await page.waitForFunction((b) => document.body.dataset.pos !== b, before);
  }
  check((await page.evaluate(() => document.body.dataset.state)) === "over", "the game did not end");
  const status = await page.textContent("#status");
  check(/wins|draw/.test(status), `the end is not stated: ${status}`);
  const final = await pos();
  console.log(`the game ended: ${status} after ${final.length} stones (${final})`);
  if (status.includes("wins")) {
    check((await page.locator(".cell.winning").count()) === 4, "the winning line is not marked");
  }
  await page.waitForTimeout(400);
  await shot("3-game-over");

  check(problems.length === 0, problems.join("; "));
  console.log("browser test: every step passed");
  await browser.close();
} catch (error) {
  console.error(`browser test failed at "${step}": ${error.message}`);
  if (problems.length) console.error(problems.join("\n"));
  await shot("failure").catch(() => {});
  await browser.close();
  process.exit(1);
}
