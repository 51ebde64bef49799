// foh serve in a real browser (Debian's chromium, driven by puppeteer-core):
//   node tests/browser/serve.mjs FOH SCREENSHOT_DIR
// 1. one person makes a 4-player table in the lobby and plays it through the
//    page against 3 greedy bots to the final scores, reconnecting mid-game
//    and across a restart of foh serve, then steps through the timeline;
// 2. two people on two browser contexts play a 2-player Banker game by
//    their links;
// 3. in the civilization draft, no page (the other player's, a
//    spectator's) and no view the server sends holds a card hidden from it;
// 4. a bot takes the seat of a player who is away, and gives it back;
// 5. the table at phone size fits the screen's width (in 1);
// 6. (part 5) two people at one screen (hot seat) undo a decision.
// Screenshots of each stage go to SCREENSHOT_DIR. Exit 0 when every check
// holds; the first failed check is printed and the exit is 1.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";

const [foh, shots] = process.argv.slice(2);
if (!foh || !shots) {
  console.error("usage: node serve.mjs FOH SCREENSHOT_DIR");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const tables = mkdtempSync(join(tmpdir(), "foh-serve-test-"));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let checks = 0;
// FOH_SERVE_PARTS=1,3 runs those parts alone (when mending one).
const parts = (process.env.FOH_SERVE_PARTS || "1,2,3,4,5").split(",").map(Number);
const want = (n) => parts.includes(n);
function check(ok, what) {
  if (!ok) throw new Error("check failed: " + what);
  checks++;
}

// ---- the server ----

let server = null;
async function startServer(port) {
  const proc = spawn(foh, ["serve", "--port", String(port), "--tables", tables, "--abandon", "3"],
    { stdio: ["ignore", "pipe", "inherit"] });
  const base = await new Promise((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) resolve("http://127.0.0.1:" + m[1]);
    });
    proc.on("exit", (code) => reject(new Error("foh serve exited with " + code + " before listening")));
  });
  server = { proc, base, port: Number(/:(\d+)$/.exec(base)[1]) };
  return server;
}
async function stopServer() {
  const exited = new Promise((r) => server.proc.on("exit", (code, sig) => r({ code, sig })));
  server.proc.kill("SIGTERM");
  const { code } = await exited;
  check(code === 0, "foh serve stops with status 0 on SIGTERM (got " + code + ")");
  server = null;
}
async function api(path, body, token) {
  const opt = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  for (let tries = 0; ; tries++) {
    const r = await fetch(server.base + path + (token ? (path.includes("?") ? "&" : "?") + "k=" + token : ""), opt);
    const j = await r.json();
    if (r.status === 503 && j.busy && tries < 50) { // a bot is thinking at the table: ask again
      await sleep(100);
      continue;
    }
    if (!r.ok) throw new Error(path + ": " + r.status + " " + j.error);
    return j;
  }
}

// ---- driving a page ----

let rng = 12345;
function random(n) {
  rng = (rng * 1103515245 + 12345) % 2147483648;
  return rng % n;
}
async function state(page) {
  return page.evaluate(() => ({
    version: Number(document.body.dataset.version || -1),
    decides: document.body.dataset.decides === "1",
    over: document.body.dataset.over === "1",
  }));
}
// Wait until PAGE's player is to decide or the game is over.
async function waitTurn(page, ms = 180000) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await state(page);
    if (s.over || s.decides) return s;
    if (Date.now() > end) throw new Error("timed out waiting for a decision or the end");
    await sleep(100);
  }
}
// Take one of the legal actions shown (a random control), and wait for the
// page to show the table after it.
async function decide(page) {
  await page.bringToFront(); // a tab in the background draws no frames, and takes no clicks
  const before = await state(page);
  const controls = await page.$$("#actions button");
  check(controls.length > 0, "the page shows the legal actions as controls");
  const pick = controls[random(controls.length)];
  if (process.env.FOH_SERVE_DEBUG) console.log("pick", await pick.evaluate((b) => b.textContent + " " + (b.previousSibling ? b.previousSibling.value : "")));
  await pick.hover(); // the preview
  const preview = await page.$eval("#preview", (e) => e.textContent);
  check(preview.startsWith("If you"), "hovering a control previews the action: " + preview.slice(0, 60));
  await pick.click();
  const end = Date.now() + 120000; // a loaded machine (the sanitizers, other tests) is slow
  while ((await state(page)).version === before.version) {
    const err = await page.$eval("#act-error", (e) => e.textContent);
    if (err) throw new Error("the page refused a legal action: " + err);
    if (Date.now() > end) throw new Error("the action was not applied");
    await sleep(50);
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
// Open URL in PAGE and wait for its first view (the page polls for ever, so
// the network is never idle).
async function open(page, url) {
  await page.goto(url, { waitUntil: "domcontentloaded" });
  // Polled by time: a tab in the background runs no animation frames.
  await page.waitForFunction(() => document.body.dataset.version !== undefined || !document.getElementById("lobby").hidden,
    { polling: 100 });
}
async function newPage(context) {
  const page = await (context || browser).newPage();
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewport({ width: 1280, height: 800 });
  return page;
}

const t0 = Date.now();
try {
  await startServer(0);

  // ---- 1. a full 4-player game through the page ----
  if (want(1)) {
  const lobby = await newPage();
  await open(lobby, server.base + "/");
  await lobby.waitForSelector("#set option");
  await lobby.$eval("#seed", (e) => { e.value = "5"; });
  await lobby.screenshot({ path: join(shots, "1-lobby.png") });
  await lobby.click("#make");
  await lobby.waitForSelector("a.seat-link");
  const seatLink = await lobby.$eval("a.seat-link", (a) => a.href);
  check(/\?t=[0-9a-f]{12}&k=[0-9a-f]{32}$/.test(seatLink), "the lobby gives a seat link with its secret");
  await lobby.close();
  let page = await newPage();
  await open(page, seatLink);
  let decisions = 0, restarted = false, reconnected = false;
  for (;;) {
    const s = await waitTurn(page);
    if (s.over) break;
    if (decisions === 1)
      await page.screenshot({ path: join(shots, "2-table-1280x800.png") });
    if (decisions === 8 && !reconnected) {
      // The player closes the page and comes back by the link.
      await page.close();
      page = await newPage();
      await open(page, seatLink);
      const turn = await page.$eval("#turn", (e) => e.textContent);
      check(/You are P1/.test(turn), "the link opens the same seat again: " + turn);
      reconnected = true;
      continue;
    }
    if (decisions === 16 && !restarted) {
      // foh serve stops and starts again on the same port: the table resumes.
      const version = s.version, port = server.port;
      await stopServer();
      await startServer(port);
      // The page's next poll reaches the new server.
      const end = Date.now() + 20000;
      while (!(await page.evaluate(async () => { await poll(); return !/does not answer/.test(
        document.getElementById("status").textContent); })) && Date.now() < end)
        await sleep(200);
      const after = await waitTurn(page);
      check(after.version === version, "the table resumes where it stood (" + after.version + " = " + version + ")");
      restarted = true;
      continue;
    }
    await decide(page);
    decisions++;
    if (decisions === 20) {
      await page.setViewport({ width: 390, height: 844 });
      await sleep(200);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      check(width <= 390, "at phone size the page fits the screen's width (" + width + " px)");
      await page.screenshot({ path: join(shots, "3-table-phone.png"), fullPage: true });
      await page.setViewport({ width: 1280, height: 800 });
    }
  }
  check(reconnected && restarted, "the game went on past the reconnection and the restart");
  const over = await page.$eval("#over", (e) => e.textContent);
  check(/Game over\. (Winner|Shared win)/.test(over), "the final scores name the winner: " + over);
  const vp = await page.$$eval("#scores tr", (rows) => rows.length);
  check(vp >= 2, "the score table is shown");
  await page.screenshot({ path: join(shots, "4-game-over.png"), fullPage: true });
  console.log("1. a 4-player game through the page (" + ((Date.now() - t0) / 1000).toFixed(0) + " s): " + decisions + " decisions by the person, to the end");
  // The timeline: step 3 of the finished game.
  await page.waitForSelector("#timeline:not([hidden])");
  await page.click("#step-back");
  await sleep(300);
  await page.$eval("#step", (e) => { e.value = "3"; e.dispatchEvent(new Event("input")); });
  await page.waitForFunction(() => /Replay: step 3 of/.test(document.getElementById("status").textContent),
    { polling: 100 });
  await page.screenshot({ path: join(shots, "5-timeline.png"), fullPage: true });
  await page.close();
  }

  // ---- 2. two people, a 2-player Banker game, two browser contexts ----
  if (want(2)) {
  const made = await api("/api/tables", { cards: "base", variants: ["two-player-banker"], seats: ["human", "human"],
    seed: 3 });
  check(made.links.length === 2, "a table of two humans gives two links");
  const contexts = [await browser.createBrowserContext(), await browser.createBrowserContext()];
  const pages = [];
  for (let i = 0; i < 2; i++) {
    pages[i] = await newPage(contexts[i]);
    await open(pages[i], server.base + "/?t=" + made.id + "&k=" + made.links[i].token);
  }
  let moves = 0;
  for (;;) {
    const s = [await state(pages[0]), await state(pages[1])];
    if (s[0].over && s[1].over) break;
    const i = s[0].decides ? 0 : s[1].decides ? 1 : -1;
    if (i < 0) {
      await sleep(100);
      continue;
    }
    check(!(s[0].decides && s[1].decides), "one player decides at a time");
    await decide(pages[i]);
    // The other page would see the move at its next poll (half a second);
    // it looks now, as a player reloading would, to keep the test short.
    await pages[1 - i].evaluate(() => poll());
    if (++moves === 3 && (await pages[1].bringToFront(), true))
      await pages[1].screenshot({ path: join(shots, "6-banker-p2.png"), fullPage: true });
  }
  const ends = await Promise.all(pages.map((p) => p.$eval("#over", (e) => e.textContent)));
  check(ends.every((t) => /Game over/.test(t)), "both players see the end of the Banker game");
  console.log("2. a 2-player Banker game by two links: " + moves + " decisions (" + ((Date.now() - t0) / 1000).toFixed(0) + " s)");
  await Promise.all(contexts.map((c) => c.close()));
  }

  // ---- 3. hidden cards, in the civilization draft ----
  if (want(3)) {
  const civ = await api("/api/tables", { cards: "civ-draft", seats: ["human", "human", "greedy"], seed: 11 });
  const tok = [civ.links[0].token, civ.links[1].token];
  const civPages = [await newPage(), await newPage(), await newPage()];
  await open(civPages[0], server.base + "/?t=" + civ.id + "&k=" + tok[0]);
  await open(civPages[1], server.base + "/?t=" + civ.id + "&k=" + tok[1]);
  await open(civPages[2], server.base + "/?t=" + civ.id);
  const allNames = (await api("/api/tables/" + civ.id + "/cards")).cards.map((c) => c.name);
  const hand = (obs) => ((/^\s*hand: (.*)$/m.exec(obs) || [])[1] || "").split(", ").filter((x) => x && x !== "-");
  const known = (obs, p) => {
    const m = new RegExp("^P" + p + ":[^\\n]*\\n\\s*known in hand: (.*)$", "m").exec(obs);
    return (m ? m[1] : "").split(", ").filter((x) => x && x !== "-");
  };
  // A name inside another card's name cannot be told apart in a page's text.
  const distinct = (n) => !allNames.some((o) => o !== n && o.includes(n));
  let hiddenChecked = 0, civMoves = 0;
  for (let step = 0; step < 60; step++) {
    const views = [await api("/api/tables/" + civ.id, undefined, tok[0]), await api("/api/tables/" + civ.id, undefined, tok[1]),
      await api("/api/tables/" + civ.id)];
    if (views[0].over) break;
    for (const p of civPages) await p.evaluate(() => poll()); // as each page's next poll would
    for (const [viewer, owner] of [[1, 0], [0, 1], [2, 0], [2, 1]]) {
      const own = hand(views[owner].observation);
      const seen = viewer < 2 ? known(views[viewer].observation, owner + 1) : known(views[2].observation, owner + 1);
      const hidden = own.filter((c) => !seen.includes(c) && distinct(c) && !views[viewer].observation.includes(c));
      // What the page holds, hidden elements included (the card tip, every option).
      const text = await civPages[viewer].evaluate(() => document.body.textContent);
      const json = JSON.stringify(views[viewer]);
      for (const c of hidden) {
        check(!text.includes(c), "P" + (owner + 1) + "'s hidden card " + c + " is not on the page of " +
          (viewer < 2 ? "P" + (viewer + 1) : "a spectator"));
        check(!json.includes(c), "nor in the view the server sends it");
        hiddenChecked++;
      }
    }
    const i = views[0].decides ? 0 : views[1].decides ? 1 : -1;
    if (process.env.FOH_SERVE_DEBUG) console.log("step", step, "decides", i, "version", views[0].version);
    if (i >= 0) {
      await waitTurn(civPages[i]);
      if ((await state(civPages[i])).version === views[i].version) {
        await decide(civPages[i]);
        civMoves++;
      }
    } else await sleep(200);
    if (step === 10 && (await civPages[2].bringToFront(), true))
      await civPages[2].screenshot({ path: join(shots, "7-civ-spectator.png"), fullPage: true });
  }
  check(hiddenChecked > 20, "hidden cards were checked (" + hiddenChecked + " checks)");
  console.log("3. (" + ((Date.now() - t0) / 1000).toFixed(0) + " s) the civilization draft: " + hiddenChecked + " hidden-card checks over " + civMoves + " decisions");
  for (const p of civPages) await p.close();
  }

  // ---- 4. a bot takes an abandoned seat, and gives it back ----
  if (want(4)) {
  const away = await api("/api/tables", { cards: "base", seats: ["human", "greedy", "greedy"], seed: 2 });
  let v = await api("/api/tables/" + away.id);
  const start = v.version;
  const until = Date.now() + 15000;
  while (!(v.seats[0].standin && v.version > start + 6) && Date.now() < until) {
    await sleep(300);
    v = await api("/api/tables/" + away.id);
  }
  check(v.seats[0].standin, "after --abandon seconds a bot plays the seat nobody answers");
  check(v.version > start + 6, "and the game goes on (" + start + " -> " + v.version + " actions)");
  const back = await newPage();
  await open(back, server.base + "/?t=" + away.id + "&k=" + away.links[0].token);
  v = await api("/api/tables/" + away.id);
  check(!v.seats[0].standin, "the player's return gives the seat back");
  check(v.log.some((l) => /P1's player is back/.test(l)), "the log says the player is back");
  await back.screenshot({ path: join(shots, "8-seat-given-back.png"), fullPage: true });
  console.log("4. (" + ((Date.now() - t0) / 1000).toFixed(0) + " s) a bot played the abandoned seat for " + (v.version - start) + " actions, then gave it back");
  await back.close();
  }

  // ---- 5. hot seat: two people at one screen, and undo ----
  if (want(5)) {
  const hot = await api("/api/tables", { cards: "base", seats: ["human", "greedy", "human"], hotseat: true, seed: 8 });
  check(hot.links.length === 1 && hot.links[0].seat === "hotseat", "a hot-seat table has one link");
  const screen = await newPage();
  await open(screen, server.base + "/?t=" + hot.id + "&k=" + hot.links[0].token);
  for (let i = 0; i < 3; i++) {
    await waitTurn(screen);
    await decide(screen);
  }
  const before = await waitTurn(screen);
  await screen.click("#undo");
  await screen.waitForFunction((v) => Number(document.body.dataset.version) < v, { polling: 100 }, before.version);
  const undone = await waitTurn(screen);
  check(undone.decides && undone.version < before.version, "undo goes back to a person's decision (" +
    before.version + " -> " + undone.version + " actions)");
  const log = await screen.$eval("#log", (e) => e.textContent);
  check(/undone: back to before P\d's decision/.test(log), "the log says what was undone");
  await decide(screen); // and the game goes on from there
  await screen.screenshot({ path: join(shots, "9-hotseat-undo.png"), fullPage: true });
  console.log("5. (" + ((Date.now() - t0) / 1000).toFixed(0) + " s) hot seat: undo from " + before.version + " to " +
    undone.version + " actions");
  await screen.close();
  }

  check(errors.length === 0, "no script error on any page: " + errors.join("; "));
  await stopServer();
  console.log("ok: " + checks + " checks; screenshots in " + shots);
} catch (e) {
  console.error(e.message);
  process.exitCode = 1;
} finally {
  await browser.close();
  if (server) server.proc.kill("SIGKILL");
  rmSync(tables, { recursive: true, force: true });
}
