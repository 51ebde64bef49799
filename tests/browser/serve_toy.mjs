// foh serve at a table of another ruleset than The Flow of History (the toy
// game of tests/toy/), in a real browser (Debian's chromium, puppeteer-core):
//   node tests/browser/serve_toy.mjs FOH TOY_CARDS SCREENSHOT_DIR
// 1. a person plays a toy table (their seat and a random bot) through the
//    page to its end: the seat's view, its previews and the cards are built
//    through the ruleset interface alone (issue: the view read the toy's
//    game as The Flow of History's, and foh serve died);
// 2. a reply lost on its way back: the page sends the move again, the
//    server answers 409 (the move did arrive), and the page shows the table
//    after it with no error.
// Exit 0 when every check holds; the first failed check is printed, exit 1.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";

const [foh, toy, shots] = process.argv.slice(2);
if (!foh || !toy || !shots) {
  console.error("usage: node serve_toy.mjs FOH TOY_CARDS SCREENSHOT_DIR");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const tables = mkdtempSync(join(tmpdir(), "foh-serve-toy-"));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let checks = 0;
function check(ok, what) {
  if (!ok) throw new Error("check failed: " + what);
  checks++;
}

const proc = spawn(foh, ["serve", "--port", "0", "--tables", tables, "--cards", toy],
  { stdio: ["ignore", "pipe", "inherit"] });
let exited = null;
proc.on("exit", (code, sig) => { exited = { code, sig }; });
const base = await new Promise((resolve, reject) => {
  let out = "";
  proc.stdout.on("data", (d) => {
    out += d;
    const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
    if (m) resolve("http://127.0.0.1:" + m[1]);
  });
  proc.on("exit", (code) => reject(new Error("foh serve exited with " + code + " before listening")));
});
async function api(path, body) {
  const r = await fetch(base + path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}
async function state(page) {
  return page.evaluate(() => ({
    version: Number(document.body.dataset.version || -1),
    decides: document.body.dataset.decides === "1",
    over: document.body.dataset.over === "1",
  }));
}
async function waitTurn(page, ms = 120000) {
  const end = Date.now() + ms;
  for (;;) {
    check(exited === null, "foh serve is still running (it ended: " + JSON.stringify(exited) + ")");
    const s = await state(page);
    if (s.over || s.decides) return s;
    if (Date.now() > end) throw new Error("timed out waiting for a decision or the end");
    await sleep(100);
  }
}

const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  protocolTimeout: 180000,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const errors = [];
try {
  const made = await api("/api/tables", { seats: ["human", "random"], seed: 3 });
  check(made.status === 201, "a toy table is made (" + made.status + " " + JSON.stringify(made.json) + ")");
  const { id, links } = made.json;
  const page = await browser.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewport({ width: 1280, height: 800 });

  // 2. The first move's reply is lost: the move is sent to the server here,
  // and the page's own request fails as if the network dropped the reply.
  await page.setRequestInterception(true);
  let lost = 0;
  page.on("request", async (req) => {
    if (lost === 0 && req.method() === "POST" && req.url().endsWith("/actions")) {
      lost = 1;
      const r = await fetch(req.url(), { method: "POST", headers: { "Content-Type": "application/json" }, body: req.postData() });
      lost = r.status === 200 ? 2 : -r.status;
      await req.abort("failed");
      return;
    }
    await req.continue();
  });

  await page.goto(base + "/?t=" + id + "&k=" + links[0].token, { waitUntil: "domcontentloaded" });
  await page.waitForFunction(() => document.body.dataset.version !== undefined, { polling: 100 });
  let decisions = 0;
  for (;;) {
    const s = await waitTurn(page);
    if (s.over) break;
    const controls = await page.$$("#actions button");
    check(controls.length > 0, "the page shows the toy's legal actions as controls");
    await controls[decisions % controls.length].hover();
    const preview = await page.$eval("#preview", (e) => e.textContent);
    check(preview.startsWith("If you"), "a toy action is previewed: " + preview.slice(0, 60));
    await controls[decisions % controls.length].click();
    const end = Date.now() + 60000;
    while ((await state(page)).version === s.version) {
      const err = await page.$eval("#act-error", (e) => e.textContent);
      check(!err, "the page shows no error for its move (" + err + "; lost reply: " + lost + ")");
      check(Date.now() < end, "the move was applied");
      await sleep(50);
    }
    decisions++;
    if (decisions === 1) {
      check(lost === 2, "the first move arrived though its reply was lost (" + lost + ")");
      await page.screenshot({ path: join(shots, "toy-1-after-lost-reply.png"), fullPage: true });
    }
  }
  const v = await api("/api/tables/" + id);
  check(v.json.over && v.json.results && v.json.results.length === 2, "the toy game ends with results");
  check(decisions > 3, "the person took the seat's decisions (" + decisions + ")");
  const cards = await api("/api/tables/" + id + "/cards");
  check(cards.status === 200 && Array.isArray(cards.json.cards), "the toy's cards are asked (it describes none)");
  await page.screenshot({ path: join(shots, "toy-2-over.png"), fullPage: true });
  check(errors.length === 0, "no script error on the page: " + errors.join("; "));
  check(exited === null, "foh serve is still running");
  console.log("ok: " + checks + " checks; the toy game played to its end in " + decisions + " decisions");
} catch (e) {
  console.error(e.message);
  process.exitCode = 1;
} finally {
  await browser.close();
  proc.kill("SIGTERM");
  rmSync(tables, { recursive: true, force: true });
}
