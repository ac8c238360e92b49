// The web table of one seat. The seat's token arrives in the URL fragment (never sent to
// the server in a URL), is kept in this tab's session storage, and goes out only as a
// bearer header. Everything shown comes from what the server sends this seat.
"use strict";
const gameId = decodeURIComponent(location.pathname.split("/").pop());
const key = "arbiter-token-" + gameId;
if (location.hash.length > 1) {
  sessionStorage.setItem(key, location.hash.slice(1));
  history.replaceState(null, "", location.pathname);
}
const token = sessionStorage.getItem(key) || "";
const auth = { "Authorization": "Bearer " + token };
const $ = (id) => document.getElementById(id);
let lastSeq = 0;  // the newest event in the log shown
let firstSeq = 0;  // the oldest one (a long game's log is paged back from the newest)
let shownSeq = 0;
let streaming = false;  // the live stream is open, or being opened again
let endedAt = 0;  // the seq at which the server said the game was over for good, and closed the stream
const REFEREE = "referee";
// a long game's page loads the last of its log, and earlier pages when asked, never the
// whole history at once
const LOG_SHOWN = 200;
// the least the board is scaled to (its smallest words are 8 to 11 units high)
const BOARD_SCALE = 0.8;

function words(s) { return String(s).replace(/[_-]/g, " "); }

function show(value) {
  if (value === null || value === undefined) return "—";
  if (value === "?") return "hidden";
  if (Array.isArray(value)) return value.length ? value.map(show).join(", ") : "none";
  if (typeof value === "object") {
    if (!Object.keys(value).length) return "none";
    return Object.entries(value).map(([k, v]) => words(k) + ": " + show(v)).join("; ");
  }
  return words(value);
}

let refusedAt = 0;  // the seq the page showed when the box last said something

function refuse(problem) {
  const box = $("refusal");
  let text = problem.detail || problem.title || "refused";
  if (problem.rule_id) text += " (" + problem.rule_id + (problem.section ? ', "' + problem.section + '"' : "") + ")";
  box.textContent = text;
  box.hidden = false;
  unreachable = false;  // what the box says now is this
  delete box.dataset.stale;
  refusedAt = shownSeq;
}

function outdated() {  // the game moved on since the box spoke: say it was about before
  const box = $("refusal");
  if (box.hidden || box.dataset.stale || unreachable || shownSeq <= refusedAt) return;
  box.dataset.stale = "yes";
  box.textContent = "Before the last move: " + box.textContent;
}

let answered = true;  // whether the last call got any answer from the server
// the page is saying that the server could not be reached: false, or what got no answer
// ("look" at the game, "act", "stream")
let unreachable = false;

// A link without its key, or with a key the server does not know (mistyped, revoked, or
// another server's): said in a player's words, not the API's.
const NO_KEY = "This page needs your seat's own link: the one your host gave you, with your key"
  + " after the #. Open that link again.";
const BAD_KEY = "This link's key is not a seat of this game on this server (mistyped, replaced,"
  + " or from another server). Ask your host for your seat's link.";

async function call(method, path, body) {
  const opts = { method, headers: { ...auth } };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  let r;
  try {
    r = await fetch(path, opts);
  } catch (e) {  // no answer at all (the server stopped, the network dropped): say so
    answered = false;
    refuse({ detail: "the server could not be reached (no answer came); the board shows whether anything moved." });
    unreachable = method === "GET" ? "look" : "act";
    return null;
  }
  answered = true;
  const data = await r.json().catch(() => ({}));
  if (r.status === 401 || (r.status === 403 && data.title === "not your game")) {
    locked(token ? BAD_KEY : NO_KEY);
    return null;
  }
  if (!r.ok && data.faces_needed && body && body.text && !body.faces) {
    // physical dice: the server says which faces it needs; roll, type them, try again
    const faces = window.prompt(data.detail + "\nFaces as rolled:");
    if (faces && faces.trim()) return call(method, path, { ...body, faces: faces.trim() });
  }
  if (!r.ok && data.faces_needed && data.command && !(body && body.text)) {
    // the bot chose a move that rolls physical dice: the seat rolls them for it
    const faces = window.prompt(data.detail + "\nFaces as rolled:");
    if (faces && faces.trim()) {
      return call("POST", "/games/" + encodeURIComponent(gameId) + "/commands",
        { text: data.command, faces: faces.trim(), command_id: commandId() });
    }
  }
  if (!r.ok) { refuse(data); return null; }
  return data;
}

function locked(words) {  // the page can do nothing without a seat's key: say why, offer nothing
  refuse({ detail: words });
  document.body.dataset.status = "locked";
  $("command-form").hidden = true;
}

function controls(st) {
  // the referee watches and undoes; a finished game takes no more commands (its undo stays:
  // a practice game's last move may still be taken back, and a refusal says when not)
  const idle = st.status === "over" || st.seat === REFEREE;
  for (const id of ["command", "send", "bot"]) $(id).hidden = idle;
  $("command").labels.forEach((l) => { l.hidden = idle; });
  const referee = st.seat === REFEREE;
  $("undo").textContent = referee ? "Undo the last move" : "Undo my last move";
  $("move-heading").textContent = st.status === "over" ? "The game is over" : referee ? "The referee" : "Your move";
  // nothing for a bot to play while the others decide: say whom the game waits on instead
  $("bot").disabled = !st.legal.length;
  const waiting = $("waiting");
  waiting.hidden = idle || st.legal.length > 0;
  waiting.textContent = "Waiting for " + st.to_act.join(" and ") + ".";
}

function panels(view, seat, seats, drawn) {
  const mine = $("mine"), table = $("table");
  mine.replaceChildren(); table.replaceChildren();
  if (drawn && drawn.yours) {  // the game's own panels, in words, from the server
    for (const [term, text] of drawn.yours) add(mine, term, text);
    for (const [term, text] of drawn.table || []) add(table, term, text);
    return;
  }
  for (const [k, v] of Object.entries(view)) {
    if (k === "content" || k === "options") continue;
    if (v && typeof v === "object" && !Array.isArray(v) && seats.some((s) => s in v)) {
      if (seat in v) add(mine, words(k), show(v[seat]));
      for (const s of seats) if (s !== seat && s in v) add(table, s + " — " + words(k), show(v[s]));
    }
  }
}

function add(list, term, value) {
  const dt = document.createElement("dt"); dt.textContent = term;
  const dd = document.createElement("dd"); dd.textContent = value;
  list.append(dt, dd);
}

let lookAgain = null;  // a look at the game that got no answer, due again

async function refresh() {
  const st = await call("GET", "/games/" + encodeURIComponent(gameId));
  if (!st) {
    // no answer (the network gone for a moment while the stream held on): look again, or the
    // page would show the board from before the move the stream told of until the next one
    if (!answered && !lookAgain) lookAgain = setTimeout(() => { lookAgain = null; refresh(); }, 2000);
    return;
  }
  if (unreachable === "look") {  // an answer came: the server is reachable again
    // (a command's lost answer stays said: the player looks at the board to see whether it
    // was taken, and sends it again if not)
    unreachable = false;
    $("refusal").hidden = true;
  }
  // answers can arrive out of order (a click's refresh and the stream's): never draw an
  // older state over a newer one, nor the same one again (its buttons stay put)
  if (st.seq <= shownSeq) return;
  shownSeq = st.seq;
  outdated();
  $("title").textContent = st.title + " — " + st.game_id;
  $("who").textContent = st.seat === REFEREE
    ? "You are the referee: you see every seat's view and may undo any move."
    : "You are " + st.seat + ".";
  controls(st);
  $("turn").textContent = st.turn;  // in the same words as at the terminal
  // a tab among others all evening: its title says when the move is this seat's
  document.title = (st.legal.length ? "(your move) " : "") + st.title + " — " + st.game_id;
  document.body.dataset.status = st.status;
  // over for good (nothing can take the end back): the stream has closed, for ever
  document.body.dataset.final = st.final ? "yes" : "no";
  document.body.dataset.seq = st.seq;
  document.body.dataset.myTurn = st.legal.length ? "yes" : "no";
  $("board").innerHTML = st.board;  // drawn by the server from this seat's view, escaped there
  // on a narrow screen (a phone) the board keeps a size its words can be read at, and
  // scrolls sideways, rather than shrinking to fit
  const drawn = $("board").querySelector("svg");
  if (drawn && drawn.viewBox && drawn.viewBox.baseVal) {
    drawn.style.minWidth = Math.round(BOARD_SCALE * drawn.viewBox.baseVal.width) + "px";
  }
  // a stream that ended is opened again while the game can still change
  // (an answer sent before the end that arrives after it is older than the end: not that)
  if (!st.final && logged && !streaming && st.seq > endedAt) stream();
  panels(st.view, st.seat, st.seats, st.panels);
  const menu = $("menu");
  menu.replaceChildren();
  st.legal.forEach((text, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button"; b.textContent = (i + 1) + ". " + text; b.dataset.command = text;
    b.addEventListener("click", () => send(text));
    li.append(b); menu.append(li);
  });
}

// A command that got no answer may still have been taken: sent again, it goes under the same
// command id, so the server answers with the first one's receipt instead of taking it twice.
let unanswered = null;

function commandId() {  // crypto.randomUUID needs https; getRandomValues works on a LAN's http
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return "web-" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

async function send(text) {
  $("refusal").hidden = true;
  const id = unanswered && unanswered.text === text ? unanswered.id : commandId();
  unanswered = { text, id };
  const done = await call("POST", "/games/" + encodeURIComponent(gameId) + "/commands", { text, command_id: id });
  if (answered) unanswered = null;
  if (done) { $("command").value = ""; await refresh(); }
}

let logged = false;  // the log's first page is shown (the stream goes on from its end)

function logPath(before) {
  return "/games/" + encodeURIComponent(gameId) + "/events?before=" + before + "&limit=" + LOG_SHOWN;
}

async function loadLog() {
  const upto = shownSeq;
  const page = await call("GET", logPath(upto + 1));
  if (!page) return;
  page.events.forEach(addEvent);
  lastSeq = Math.max(lastSeq, upto);
  earlier(page);
  logged = true;
}

function earlier(page) {  // the oldest shown so far, and whether the log goes further back
  if (page.events.length) firstSeq = page.events[0].seq;
  $("earlier").hidden = !page.more;
}

async function showEarlier() {
  const button = $("earlier");
  button.disabled = true;
  const page = await call("GET", logPath(firstSeq));
  button.disabled = false;
  if (!page) return;
  // older lines go below the ones shown (the newest is on top), newest of them first
  for (const ev of page.events.slice().reverse()) {
    if (ev.seq >= firstSeq) continue;
    $("log").append(logLine(ev));
  }
  earlier(page);
}

function logLine(ev) {
  const li = document.createElement("li");
  li.textContent = ev.seq + ". " + ev.text;
  return li;
}

function addEvent(ev) {
  if (ev.seq <= lastSeq) return;
  lastSeq = ev.seq;
  if (!firstSeq) firstSeq = ev.seq;
  $("log").prepend(logLine(ev));
}

async function stream() {
  streaming = true;
  try { await follow(); } finally { streaming = false; }
}

// A browser keeps at most six connections to one server, and an open stream holds one: six
// tabs following games (a host's seats and referee pages, several tables) would leave none
// for anything else, not even a seventh tab's page. A tab out of sight lets its stream go and
// looks at the game now and then (its title still says when the move is the seat's); back in
// sight, it follows the stream again from the last event it had.
const HIDDEN_LOOK = 10000;
let following = null;  // the open stream's controller
let wake = null;  // ends the wait of a tab out of sight
document.addEventListener("visibilitychange", () => {
  if (document.hidden && following) following.abort("hidden");
  if (!document.hidden && wake) wake();
});

async function outOfSight() {  // while the tab is hidden: look at the game, hold no stream
  while (document.hidden) {
    // a game over for good has nothing more to show until the tab is looked at again
    const final = document.body.dataset.final === "yes";
    await new Promise((ok) => { wake = ok; if (!final) setTimeout(ok, HIDDEN_LOOK); });
    wake = null;
    if (document.hidden) await refresh();
  }
  scheduleRefresh();
}

async function follow() {
  // EventSource cannot send a bearer header, so the stream is read with fetch. The server
  // closes it once the game is over for good (after a final `event: over`): then there is
  // nothing to wait for. An end an undo may still take back keeps it open: the undo comes
  // as events like any move, to every seat's page.
  for (;;) {
    if (document.hidden) await outOfSight();
    // a connection can die unnoticed (a laptop that slept, a network that changed): when the
    // stream stays silent three times as long as the server's keep-alives, it is opened again
    const ctl = new AbortController();
    following = ctl;
    let quiet = 45000, watchdog = null;
    const heard = () => { clearTimeout(watchdog); watchdog = setTimeout(() => ctl.abort(), quiet); };
    try {
      heard();
      const r = await fetch("/games/" + encodeURIComponent(gameId) + "/stream?after=" + lastSeq,
        { headers: auth, signal: ctl.signal });
      heard();
      if (r.status === 401) { locked(BAD_KEY); return; }  // the link was replaced meanwhile
      if (!r.ok) { refuse(await r.json().catch(() => ({ detail: "the stream was refused" }))); return; }
      if (unreachable) {  // back after the server or the network was gone: catch up, unsay it
        unreachable = false;
        $("refusal").hidden = true;
        scheduleRefresh();
      }
      let over = false;
      const reader = r.body.getReader();
      const dec = new TextDecoder();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        heard();
        buf += dec.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
        let cut;
        while ((cut = buf.indexOf("\n\n")) >= 0) {
          const chunk = buf.slice(0, cut); buf = buf.slice(cut + 2);
          const lines = chunk.split("\n");
          const every = /^: ?keep-alive every (\d+) s/.exec(lines[0]);
          if (every) { quiet = 3000 * Number(every[1]); heard(); }
          const kind = (lines.find((l) => l.startsWith("event:")) || "event:event").slice(6).trim();
          const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
          if (!data) continue;
          if (kind === "over") {
            const end = JSON.parse(data);
            over = end.final !== false;  // a server that does not say: it closes at the end
            if (over) endedAt = end.seq;
          } else {
            over = false;
            addEvent(JSON.parse(data));
          }
          scheduleRefresh();
        }
      }
      if (over) return;  // the game is over for good and the server closed the stream: nothing more will come
    } catch (e) {
      if (ctl.signal.aborted && ctl.signal.reason === "hidden") continue;  // let go out of sight
      // the connection dropped, or the server is gone: say so, and try again
      refuse({ detail: "lost touch with the server; trying again every second…" });
      unreachable = "stream";
    } finally {
      clearTimeout(watchdog);
      following = null;
    }
    await new Promise((ok) => setTimeout(ok, 1000));
  }
}

let pending = null;
function scheduleRefresh() {
  if (pending) return;
  pending = setTimeout(async () => { pending = null; await refresh(); }, 50);
}

$("command-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("command").value.trim();
  // a number picks that line of the menu, as at the terminal
  const picked = /^\d+$/.test(text) ? $("menu").querySelectorAll("button")[Number(text) - 1] : null;
  if (picked) send(picked.dataset.command);
  else if (text) send(text);
});
$("undo").addEventListener("click", async () => {
  $("refusal").hidden = true;
  if (await call("POST", "/games/" + encodeURIComponent(gameId) + "/undo")) await refresh();
});

$("earlier").addEventListener("click", showEarlier);

$("bot").addEventListener("click", async () => {
  $("refusal").hidden = true;
  if (await call("POST", "/games/" + encodeURIComponent(gameId) + "/bot", {})) await refresh();
});

(async () => {
  if (!token) { locked(NO_KEY); return; }
  await refresh();
  if (document.body.dataset.status === "locked") return;
  await loadLog();
  if (document.body.dataset.final === "no") stream();  // a game over for good has no more to come
})();
