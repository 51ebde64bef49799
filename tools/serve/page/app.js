// foh serve's page (docs/serve.md): the lobby, and a table as one seat, a
// spectator or the timeline sees it. Every text from the server is put in
// the page with textContent, never as HTML.
"use strict";

const params = new URLSearchParams(location.search);
const tableId = params.get("t");
const token = params.get("k") || "";
const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

async function api(path, body) {
  const opt = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opt);
  let j = null;
  try { j = await r.json(); } catch (e) { j = { error: "the server's reply is not JSON" }; }
  if (!r.ok) throw Object.assign(new Error(j && j.error ? j.error : r.statusText), { status: r.status });
  return j;
}

// ---- the lobby ----

let sets = [];

function seatRows() {
  const n = Math.max(1, Math.min(8, Number($("players").value) || 4));
  const box = $("seats");
  const old = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.textContent = "";
  for (let p = 0; p < n; p++) {
    const label = el("label", "P" + (p + 1) + " ");
    const sel = el("select");
    sel.name = "seat" + p;
    sel.className = "seat";
    for (const k of ["human", "greedy", "random", "ismcts", "ismcts:200"]) {
      const o = el("option", k === "human" ? "a person (by link)" : "bot: " + k);
      o.value = k;
      sel.appendChild(o);
    }
    sel.value = old[p] || (p === 0 ? "human" : "greedy");
    label.appendChild(sel);
    box.appendChild(label);
  }
}

function variantBoxes() {
  const box = $("variants");
  box.querySelectorAll("label").forEach((l) => l.remove());
  const set = sets.find((s) => s.name === $("set").value);
  const names = set ? set.variants : []; /* the set's own and, for its ruleset, the shared ones */
  for (const v of names) {
    const label = el("label");
    const c = el("input");
    c.type = "checkbox";
    c.value = v;
    label.appendChild(c);
    label.appendChild(document.createTextNode(" " + v));
    box.appendChild(label);
  }
}

async function lobby() {
  $("lobby").hidden = false;
  $("title").textContent = "foh: make or watch a table";
  try {
    const s = await api("/api/sets");
    sets = s.sets;
    for (const set of sets) {
      const o = el("option", set.name);
      o.value = set.name;
      $("set").appendChild(o);
    }
    if (sets.some((s) => s.name === "base")) $("set").value = "base";
  } catch (e) {
    $("create-error").textContent = e.message;
  }
  variantBoxes();
  seatRows();
  $("set").addEventListener("change", variantBoxes);
  $("players").addEventListener("input", seatRows);
  $("create").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("create-error").textContent = "";
    const req = {
      cards: $("set").value,
      variants: Array.from($("variants").querySelectorAll("input:checked")).map((c) => c.value),
      seats: Array.from($("seats").querySelectorAll("select")).map((s) => s.value),
      hotseat: $("hotseat").checked,
    };
    if ($("seed").value !== "") req.seed = Number($("seed").value);
    try {
      const made = await api("/api/tables", req);
      showLinks(made);
      listTables();
    } catch (e) {
      $("create-error").textContent = e.message;
    }
  });
  listTables();
}

function link(id, k) {
  return location.origin + "/?t=" + encodeURIComponent(id) + (k ? "&k=" + encodeURIComponent(k) : "");
}

function showLinks(made) {
  $("made").hidden = false;
  const ul = $("links");
  ul.textContent = "";
  for (const l of made.links) {
    const li = el("li", (l.seat === "hotseat" ? "Every human seat (hot seat)" : "Seat " + l.seat) + ": ");
    const a = el("a", link(made.id, l.token));
    a.href = link(made.id, l.token);
    a.className = "seat-link";
    a.dataset.seat = l.seat;
    li.appendChild(a);
    ul.appendChild(li);
  }
  const li = el("li", "Spectators: ");
  const a = el("a", link(made.id, ""));
  a.href = link(made.id, "");
  a.className = "watch-link";
  li.appendChild(a);
  ul.appendChild(li);
}

async function listTables() {
  try {
    const r = await api("/api/tables");
    const ul = $("tables");
    ul.textContent = "";
    for (const t of r.tables) {
      const li = el("li");
      const a = el("a", t.title + " (" + t.cards + "), " + t.players + " players: " + t.seats.join(", ") +
        (t.over ? ", finished: replay" : ", turn " + t.turn));
      a.href = link(t.id, "");
      li.appendChild(a);
      ul.appendChild(li);
    }
    if (!r.tables.length) ul.appendChild(el("li", "none yet"));
  } catch (e) {
    $("tables").textContent = e.message;
  }
}

// ---- a table ----

let view = null;       // the last view
let cards = [];        // [{name, text}]
let cardPattern = null;
let busy = false;
let replayStep = -1;   // the timeline's step shown, or -1: the game as it stands
let offline = false;   // the last poll failed
let gone = false;      // the table does not exist: no more polls
let armed = null;      // on a touch screen, the action tapped once (its preview shown; a second tap takes it)

// TEXT as nodes, each card name in it a span whose text shows on hover or tap.
function withCards(text) {
  const frag = document.createDocumentFragment();
  if (!cardPattern) {
    frag.appendChild(document.createTextNode(text));
    return frag;
  }
  let last = 0;
  cardPattern.lastIndex = 0;
  for (let m; (m = cardPattern.exec(text));) {
    if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
    const s = el("span", m[0], "card");
    s.tabIndex = 0;
    s.dataset.card = m[0];
    frag.appendChild(s);
    last = m.index + m[0].length;
  }
  if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
  return frag;
}

function showTip(target) {
  const c = cards.find((x) => x.name === target.dataset.card);
  const tip = $("card-tip");
  if (!c) return;
  tip.textContent = "";
  tip.appendChild(el("strong", c.name));
  tip.appendChild(el("p", c.text));
  tip.hidden = false;
  const r = target.getBoundingClientRect();
  tip.style.left = Math.max(4, Math.min(window.innerWidth - 300, r.left + window.scrollX)) + "px";
  tip.style.top = (r.bottom + window.scrollY + 4) + "px";
}

document.addEventListener("mouseover", (e) => { if (e.target.classList && e.target.classList.contains("card")) showTip(e.target); });
document.addEventListener("mouseout", (e) => { if (e.target.classList && e.target.classList.contains("card")) $("card-tip").hidden = true; });
document.addEventListener("click", (e) => {
  if (e.target.classList && e.target.classList.contains("card")) showTip(e.target);
  else if ($("card-tip")) $("card-tip").hidden = true;
});

// The observation: "key: value" lines, and the lines of each player (those
// starting "P1" and the indented lines after them) in a box of their own.
function renderBoard(v) {
  const board = $("board");
  board.textContent = "";
  const common = el("dl", null, "common");
  const players = {};
  let current = null;
  for (const line of v.observation.split("\n")) {
    if (!line.trim()) continue;
    const m = /^P(\d+)\b/.exec(line);
    if (m) current = m[1];
    else if (!/^\s/.test(line)) current = null;
    if (current) {
      if (!players[current]) players[current] = [];
      players[current].push(line.trim());
      continue;
    }
    const i = line.indexOf(":");
    const dt = el("dt", i > 0 ? line.slice(0, i) : "");
    const dd = el("dd");
    dd.appendChild(withCards(i > 0 ? line.slice(i + 1).trim() : line));
    common.appendChild(dt);
    common.appendChild(dd);
  }
  board.appendChild(common);
  const nations = el("div", null, "nations");
  for (const p of Object.keys(players)) {
    const box = el("div", null, "nation");
    box.dataset.seat = p;
    if (Number(p) === v.to_act) box.classList.add("to-act");
    if (Number(p) === v.viewer) box.classList.add("mine");
    box.appendChild(el("h3", "P" + p + (Number(p) === v.viewer ? " (you)" : "") + (Number(p) === v.to_act ? " to act" : "")));
    for (const line of players[p]) {
      const d = el("div");
      d.appendChild(withCards(line));
      box.appendChild(d);
    }
    nations.appendChild(box);
  }
  board.appendChild(nations);
}

function renderScores(v) {
  const t = $("scores");
  t.textContent = "";
  const head = el("tr");
  head.appendChild(el("th", ""));
  v.seats.forEach((s) => head.appendChild(el("th", s.name)));
  t.appendChild(head);
  const rows = v.scores.length ? v.scores[0].length : 0;
  for (let i = 0; i < rows; i++) {
    const tr = el("tr");
    tr.appendChild(el("th", v.scores[0][i].label));
    v.scores.forEach((lines) => tr.appendChild(el("td", lines[i] ? lines[i].value : "")));
    t.appendChild(tr);
  }
  const over = $("over");
  over.hidden = !v.over;
  if (v.over) over.textContent = "Game over. " + winnerText(v);
}

function winnerText(v) {
  if (!v.results) return "";
  const best = Math.max(...v.results);
  const winners = v.seats.filter((s, i) => v.results[i] === best && best > 0).map((s) => s.name);
  return (winners.length > 1 ? "Shared win: " : "Winner: ") + winners.join(", ");
}

function renderSeats(v) {
  const ul = $("seat-list");
  ul.textContent = "";
  for (const s of v.seats) {
    let what = s.kind === "bot" ? "bot (" + s.spec + ")" : s.standin ? "away: a bot plays for them" :
      s.present ? "a person, here" : "a person, not here";
    const li = el("li", s.name + ": " + what + (s.seat === v.to_act ? " (to act)" : ""));
    li.dataset.seat = s.seat;
    ul.appendChild(li);
  }
}

function renderLog(v) {
  const ol = $("log");
  const atEnd = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 8;
  ol.textContent = "";
  for (const line of v.log) {
    const li = el("li");
    li.appendChild(withCards(line));
    if (/^Turn \d+/.test(line)) li.className = "turn-line";
    ol.appendChild(li);
  }
  if (atEnd) ol.scrollTop = ol.scrollHeight;
}

function showPreview(a) {
  const box = $("preview");
  box.textContent = "";
  if (!a) return;
  box.appendChild(el("h3", "If you " + a.name.charAt(0).toLowerCase() + a.name.slice(1) + ":"));
  const p = a.preview || {};
  if (p.error) {
    box.appendChild(el("p", p.error, "error"));
    return;
  }
  const ul = el("ul");
  for (const line of p.log || []) {
    const li = el("li");
    li.appendChild(withCards(line));
    ul.appendChild(li);
  }
  for (const c of p.changes || []) {
    if (/^(turn|to act|you):/.test(c.to)) continue;
    const li = el("li", null, "change");
    li.appendChild(withCards(c.from ? c.from + "  \u2192  " + c.to : c.to));
    ul.appendChild(li);
  }
  for (const s of p.scores || []) ul.appendChild(el("li", "P" + s.seat + ": " + s.from + " \u2192 " + s.to + " " +
    (view && view.scores[0] ? view.scores[0][0].label : ""), "score"));
  if (p.uncertain) ul.appendChild(el("li", "and what a hidden card decides", "uncertain"));
  box.appendChild(ul);
}

// On a screen without hover, the first tap of a control shows its preview
// and the second takes it.
const touch = window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches;
function tap(a, button) {
  if (touch && armed !== a.id) {
    armed = a.id;
    showPreview(a);
    button.textContent = "Tap again: " + a.name;
    return;
  }
  armed = null;
  take(a);
}

async function take(a) {
  if (busy) return;
  busy = true;
  $("act-error").textContent = "";
  const body = { token: token, version: view.version, action: a.id };
  try {
    // A request that never reached the server (it restarts, the network
    // drops) is sent again, a few times: the version makes a second arrival
    // harmless (409, the table moved on).
    for (let tries = 0; ; tries++) {
      try {
        view = await api("/api/tables/" + encodeURIComponent(tableId) + "/actions", body);
        break;
      } catch (e) {
        if (e.status === 409 && tries > 0) { // the first try did arrive
          busy = false;
          await poll();
          return;
        }
        if ((e.status !== undefined && e.status !== 503) || tries >= 8) throw e;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    render(view);
  } catch (e) {
    $("act-error").textContent = e.message;
  } finally {
    busy = false;
  }
}

function renderActions(v) {
  const box = $("actions");
  box.textContent = "";
  $("preview").textContent = "";
  $("choice").textContent = v.choice && v.decides ? v.choice.prompt : "";
  $("undo").hidden = !(v.hotseat && token && !v.over);
  if (!v.decides) {
    box.appendChild(el("p", v.over ? "The game is over. " + winnerText(v) : v.you === "spectator" ? "You are watching." :
      "Waiting for P" + v.to_act + "...", "waiting"));
    return;
  }
  // One control per group: a button, or a list of amounts and a button.
  const groups = new Map();
  for (const a of v.legal) {
    if (!groups.has(a.group)) groups.set(a.group, []);
    groups.get(a.group).push(a);
  }
  for (const list of groups.values()) {
    const row = el("div", null, "action");
    if (list.length === 1) {
      const b = el("button", list[0].name);
      b.type = "button";
      b.dataset.id = list[0].id;
      b.addEventListener("mouseenter", () => showPreview(list[0]));
      b.addEventListener("focus", () => showPreview(list[0]));
      b.addEventListener("click", () => tap(list[0], b));
      row.appendChild(b);
    } else {
      const sel = el("select");
      for (const a of list) {
        const o = el("option", a.name);
        o.value = a.id;
        sel.appendChild(o);
      }
      const pick = () => list.find((a) => a.id === sel.value);
      sel.addEventListener("change", () => showPreview(pick()));
      sel.addEventListener("focus", () => showPreview(pick()));
      const b = el("button", "Take");
      b.type = "button";
      b.dataset.group = list[0].group;
      b.addEventListener("mouseenter", () => showPreview(pick()));
      b.addEventListener("click", () => tap(pick(), b));
      row.appendChild(sel);
      row.appendChild(b);
    }
    box.appendChild(row);
  }
}

function render(v) {
  view = v;
  // For people nothing; for tests and scripts, the state at a glance.
  document.body.dataset.version = v.version;
  document.body.dataset.decides = v.decides ? "1" : "0";
  document.body.dataset.over = v.over ? "1" : "0";
  $("title").textContent = v.title + " (" + (v.cards || "cards") + (v.variants.length ? ", " + v.variants.join(", ") : "") + ")";
  const turn = $("turn");
  turn.textContent = "";
  let who = v.you === "spectator" ? "You are watching" : v.you === "hotseat" ? "Hot seat: P" + v.viewer + "'s eyes" :
    "You are P" + v.you;
  let state = v.replay ? "Replay: step " + v.replay.step + " of " + v.replay.steps :
    v.over ? "Game over after turn " + (v.turn - 1) : v.stopped ? "Stopped: " + v.stopped :
    v.decides ? "Your decision (turn " + v.turn + ")" : "Turn " + v.turn + ": P" + v.to_act + " to act";
  turn.appendChild(el("strong", state, v.decides ? "your-turn" : ""));
  turn.appendChild(el("span", " \u2014 " + who));
  $("status").textContent = state;
  renderBoard(v);
  renderScores(v);
  renderSeats(v);
  renderLog(v);
  if (!v.replay) renderActions(v);
  const tl = $("timeline");
  if (v.over && !v.replay && replayStep < 0) {
    tl.hidden = false;
    $("step").max = v.version;
    $("step").value = v.version;
    $("step-label").textContent = v.version;
  }
}

async function showStep(step) {
  step = Math.max(0, Math.min(Number($("step").max), step));
  replayStep = step;
  $("step").value = step;
  $("step-label").textContent = step;
  try {
    render(await api("/api/tables/" + encodeURIComponent(tableId) + "/replay?step=" + step));
  } catch (e) {
    $("act-error").textContent = e.message;
  }
}

async function poll() {
  if (replayStep >= 0) return;
  try {
    const v = await api("/api/tables/" + encodeURIComponent(tableId) + (token ? "?k=" + encodeURIComponent(token) : ""));
    if (!busy && (offline || !view || v.version !== view.version ||
      JSON.stringify(v.seats) !== JSON.stringify(view.seats) || v.log.length !== view.log.length)) render(v);
    offline = false;
  } catch (e) {
    if (e.status === 404) { // no such table: it will not come
      gone = true;
      $("status").textContent = "No such table: check the link.";
      return;
    }
    if (e.status === 503) { // a bot is thinking: the next tick asks again
      offline = true;
      $("status").textContent = "A bot is thinking; the table shows again in a moment.";
      return;
    }
    offline = true;
    $("status").textContent = "The server does not answer (" + e.message + "); trying again.";
  }
}

async function table() {
  $("table").hidden = false;
  try {
    const c = await api("/api/tables/" + encodeURIComponent(tableId) + "/cards");
    cards = c.cards.filter((x) => x.name && x.name !== "?");
    $("legend").textContent = c.legend || "(this game has no legend)";
    const names = cards.map((x) => x.name).sort((a, b) => b.length - a.length)
      .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    if (names.length) cardPattern = new RegExp(names.join("|"), "g");
  } catch (e) {
    $("status").textContent = e.message;
  }
  $("undo").addEventListener("click", async () => {
    try {
      render(await api("/api/tables/" + encodeURIComponent(tableId) + "/undo", { token: token }));
    } catch (e) {
      $("act-error").textContent = e.message;
    }
  });
  $("step").addEventListener("input", () => showStep(Number($("step").value)));
  $("step-back").addEventListener("click", () => showStep(Number($("step").value) - 1));
  $("step-next").addEventListener("click", () => showStep(Number($("step").value) + 1));
  await poll();
  // Every half second while others play; every two seconds while this
  // seat decides (the server then only learns the player is still here).
  let last = Date.now();
  const tick = async () => {
    if (gone) return;
    if ((!view || !view.over) && (!view || !view.decides || Date.now() - last >= 2000)) {
      last = Date.now();
      await poll(); // a finished table changes no more
    }
    setTimeout(tick, 500);
  };
  setTimeout(tick, 500);
}

if (tableId) table(); else lobby();
