// The tablet scoreboard: draws the table's public state and sends intents.
// Every rule lives in the engine; this page only shows what it is told and offers the
// moves the engine listed as legal.
"use strict";

const COLOURS = { red: "#e4574c", blue: "#4f8fe6", yellow: "#f2d04b", green: "#5cc98b",
  purple: "#a77bdb", orange: "#f39a3d", pink: "#f28cc3", white: "#f4f4f4", black: "#555" };
const HEARTBEAT_MS = 25000;

let state = null;
let log = [];
let token = sessionStorage.getItem("tableToken") || "";
let source = null;
let lastMessage = 0;
let lastSeq = 0;
let dismissedAt = -1;  // "the board is right" was tapped at this event number

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json", "X-Table-Token": token },
    body: JSON.stringify(body),
  };
  if (body === undefined && token) options.headers = { "X-Table-Token": token };
  const response = await reach(path, options);
  const data = await response.json().catch(() => ({ error: "The companion did not answer." }));
  if (!response.ok) {
    if (response.status === 401) { token = ""; sessionStorage.removeItem("tableToken"); render(); }
    throw new Error(data.error || "Something went wrong.");
  }
  return data;
}

function send(path, body) {
  return inOrder(() => sendNow(path, body));
}

async function sendNow(path, body) {
  try {
    const data = await api(path, body);
    if (data.state) applyState(data.state, data.event);
    return true;
  } catch (error) {
    toast(error.message);
    return false;
  }
}

function colourOf(hamster) { return COLOURS[hamster.colour] || hamster.colour || "#ccc"; }
function token_(hamster, current) {
  return el("div", { class: "token" + (current ? " current" : ""), style: `background:${colourOf(hamster)}`,
    title: hamster.name }, hamster.name.slice(0, 2));
}

// The tablet's own tap is answered twice, by the reply and then by the live stream, with the
// same event and state: the second is not drawn again, so a quick next tap never lands on a button that
// is being replaced (the tap was lost).
let drawnJson = "";

function applyState(next, event) {
  const fullLog = Array.isArray(next.log);
  const gameChanged = state && next.game_id !== state.game_id;
  const json = fullLog ? "" : `${event ? event.seq : ""}#${canonical(next)}`;
  if (json && json === drawnJson && !gameChanged) return;
  // A change the page's own reply overtook (another device's move a moment before the
  // tap): its entry joins the log in its place; the board keeps the newer state it shows.
  if (state && !gameChanged && !fullLog && event && event.seq < (state.seq || 0)) {
    addEvent(event);
    render();
    return;
  }
  drawnJson = json;
  state = Object.assign({}, state || {}, next);
  if (fullLog) log = next.log.slice();
  else if (gameChanged) { refresh(); return; }
  if (event && !fullLog) { addEvent(event); lastSeq = Math.max(lastSeq, event.seq); }
  render();
  speakChange();
}

// Spoken cues on the tablet, for a Pi without a speaker: the sentence the table says after
// each change (state.spoken: the game's cues, the new phase, whose turn it is), by the
// browser's own speech synthesis. Remembered per tablet; nothing is said for the state the
// page opens on, only for changes seen live.
let spokenAt = null;

function speaking() { return Boolean(localStorage.getItem("speak")) && "speechSynthesis" in window; }

function say(text) {
  window.speechSynthesis.cancel();  // a line still waiting is stale: say where the game is now
  window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
}

function speakChange() {
  const at = `${state.game_id}:${state.seq || 0}`;
  const first = spokenAt === null;
  if (at === spokenAt) return;
  spokenAt = at;
  if (!first && state.spoken && speaking()) say(state.spoken);
}

// An event joins the log as it arrives; the page is drawn from the state that ends a batch
// (the stream sends a catch-up's or a burst's state once, with its last event).
function addEvent(event) {
  if (log.some((e) => e.seq === event.seq)) return;  // already shown
  const later = log.findIndex((e) => e.seq > event.seq);  // one that overtook it
  if (later < 0) log.push(event); else log.splice(later, 0, event);
  const target = event.args && event.args.target;
  if (event.kind === "undo") log.forEach((e) => { if (e.seq === target) e.undone = true; });
  if (event.kind === "redo") log.forEach((e) => { if (e.seq === target) e.undone = false; });
}

function describe(event) {
  const players = (state && state.players) || [];
  const who = event.seat !== undefined && event.seat !== null ? players[event.seat] + " " : "";
  if (event.kind === "next") return "NEXT";
  if (event.kind === "undo") return `Undo #${event.args.target}`;
  if (event.kind === "redo") return `Redo #${event.args.target}`;
  if (event.secret) return `${who}${event.name} (secret)`;
  const args = event.args ? Object.entries(event.args).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(", ") : "";
  return `${who}${event.name}${args ? ": " + args : ""}`;
}

// A game whose board module is missing still shows its prompt, notes and controls.
const PlainBoard = {
  render() {
    $("belt").replaceChildren(el("p", { class: "hint" }, "This game has no board drawing on the page yet."));
    $("pit").replaceChildren();
    $("hamsters").replaceChildren();
    $("tests").replaceChildren();
  },
};

// What just happened (the outcome of a Push, a Bite, a flood ...): shown at the top after
// each change, and kept in a short list under the prompt. The banner says only what this
// change added: a change with nothing new to say takes it down, so an older outcome
// ("Initiative, highest first") never stands over the moves that followed.
const RECENT = 6;
let recent = [];
let happenedAt = null;   // the change the banner was last decided for
let happenedLines = [];  // what the page could say after it
let lastHappened = "";   // what the banner said last

function showHappened(view) {
  const lines = [...(board().happened ? board().happened(view) : []), ...(view.notes || [])];
  // The end of the game is the outcome of the last action: its result shows there too.
  if (state.over && state.result && !lines.includes(state.result)) lines.push(state.result);
  const at = `${state.game_id}:${state.seq || 0}`;
  if (at === happenedAt) return;  // the same change drawn again
  const opened = happenedAt === null;
  happenedAt = at;
  const fresh = lines.filter((line) => !happenedLines.includes(line));
  happenedLines = lines;
  const banner = $("happened");
  if (opened) return;  // the page just opened: nothing happened in front of anyone
  if (!fresh.length) { banner.hidden = true; return; }
  const text = fresh.join(" ");
  lastHappened = text;
  recent = [text, ...recent.filter((line) => line !== text)].slice(0, RECENT);
  $("recent").replaceChildren(...recent.map((line) => el("li", {}, line)));
  $("recent-box").hidden = false;
  banner.textContent = text;
  banner.hidden = false;
  clearTimeout(showHappened.timer);
  showHappened.timer = setTimeout(() => { banner.hidden = true; }, 8000);
}

function board() { return (state && Boards[state.board]) || PlainBoard; }

function render() {
  if (!state) return;
  const view = state.view || {};
  $("game-title").textContent = state.title ? `${state.title} · ${state.rules}` : "Hamster table companion";
  $("round").textContent = state.round ? `Round ${state.round}` : "Set-up";
  // A game played in turns without rounds (Hamster Wheel) shows no "Round 1" all game.
  $("round").hidden = Boolean(state.round) && (state.phases || []).length <= 1;
  $("prompt").textContent = state.put_back ? `${state.put_back} ${state.prompt || ""}` : state.prompt || "";
  // The phase under way by its name, the others by their number (or first word): the list
  // stays one line, so the board starts higher on the tablet.
  $("phases").replaceChildren(...(state.phases || []).map((phase) => {
    const now = state.phase === phase.name;
    return el("li", { class: now ? "now" : "", title: phase.title }, now ? phase.title : phase.title.split(" ")[0]);
  }));
  const unlocked = Boolean(token) && state.control !== false;
  $("lock").textContent = unlocked ? "Lock" : "Unlock";
  // how the table plays is the PIN holder's to change; the button shows it to everyone
  $("auto").setAttribute("aria-pressed", String(!keepsEveryStop()));
  $("auto").disabled = !unlocked;
  $("controls").hidden = !unlocked;
  document.querySelector(".new-game-box").hidden = !unlocked;
  $("calibration-box").hidden = !unlocked;
  $("care-box").hidden = !unlocked;
  $("seats-box").hidden = !unlocked || !state.game;
  renderByHand();
  document.body.dataset.game = state.game || "";
  document.body.dataset.seq = String(state.seq || 0);  // tests wait for the page to catch up
  board().render(view);
  $("notes").replaceChildren(...(view.notes || []).map((n) => el("p", {}, n)));
  showHappened(view);
  renderVision();
  if (unlocked) renderControls(view);
  passOnItsOwn(unlocked);
  $("log").replaceChildren(...log.slice().reverse().map((e) =>
    el("li", { class: e.undone ? "undone" : "", value: e.seq }, describe(e))));
}

// A step where nobody has a decision (the game says it passes, no move is offered, NEXT
// takes no dice): once the outcome has been on screen a moment, this tablet presses NEXT
// itself, naming the change it saw, so a second tablet doing the same changes nothing.
// "Auto" off keeps every stop for NEXT: a table setting (state.every_stop, changed behind the
// PIN), so every tablet and phone of the table does the same, and the companion refuses an
// automatic NEXT from a page that had not heard of it yet.
const PASS_AFTER_MS = 3000;
function keepsEveryStop() { return Boolean(state && state.every_stop); }

function passOnItsOwn(unlocked) {
  clearTimeout(passOnItsOwn.timer);
  const idle = state.passes && !state.over && !state.pending && !(state.legal || []).length
    && !(state.next_dice || []).length;
  if (!unlocked || !idle || keepsEveryStop()) return;
  const at = shownAt();
  passOnItsOwn.timer = setTimeout(() => {
    if (shownAt() !== at || keepsEveryStop()) return;
    inOrder(() => api("/api/intent", { intent: "next", at, game: shownGame(), auto: true })
      .then((data) => { if (data.state) applyState(data.state, data.event); })
      // another tablet passed it first, a person did, or the table now keeps every stop
      // (set on another tablet): nothing to say, but read the table's state afresh
      .catch(() => refresh()));
  }, PASS_AFTER_MS);
}

// The camera's read-only notes by reading kind: where it disagrees with the board (the game
// is never changed by them), and the wheel it follows.
function renderVision() {
  const notes = state.camera || {};
  const check = notes.belt;
  const box = $("board-check");
  const dismissed = check && check.status === "differ" && dismissedAt === state.seq;
  box.hidden = !check || dismissed;
  if (check && !dismissed) {
    box.className = `board-check ${check.status}`;
    const title = check.status === "differ" ? [el("b", {}, "Camera disagrees (the game was not changed):")] : [];
    // The rules of the house: a person settles a disagreement with one tap.
    const settle = check.status === "differ" && token && state.control !== false ? [el("div", { class: "settle" },
      ...(check.fix ? [el("button", { type: "button", class: "big", onclick: () => send("/api/move",
        { seat: state.current ?? 0, name: check.fix.name, args: check.fix.args }) }, "The camera is right")] : []),
      el("button", { type: "button", class: "big", onclick: () => { dismissedAt = state.seq; renderVision(); } },
        "The board is right"))] : [];
    box.replaceChildren(...title, ...check.lines.map((note) => el("p", {}, note)), ...settle);
  }
  const wheel = notes.wheel;
  $("wheel-box").hidden = !wheel;
  if (!wheel) return;
  const fallen = Object.entries(wheel.fallen).filter(([, n]) => n > 0).map(([colour, n]) => `${n} ${colour}`);
  // The ring read but the pieces not counted (a cloth hiding a colour, a piece against the
  // ring): the count held is an old one, so the reason stands in its place.
  const uncounted = (wheel.pieces_reason || "").replace(/[. ]+$/, "");
  const lines = wheel.seen
    ? [`Rolled ${wheel.roll_turns.toFixed(2)} turns (${wheel.rolled_distance.toFixed(1)} squares along the table)`,
       `Marker at ${Math.round(wheel.angle_deg)}° · ${wheel.drift_distance.toFixed(1)} squares from the centre`,
       uncounted ? `Fallen out: not counted just now (${uncounted}).`
         : `Fallen out: ${fallen.length ? `${fallen.join(", ")} (${wheel.fallen_total})` : "none"}`]
    : ["The camera has not found the wheel yet."];
  if (wheel.blocked) lines.push(`Not read just now: ${wheel.reason}.`);
  $("wheel").replaceChildren(...lines.map((line) => el("p", {}, line)),
    ...[wheel.hint, wheel.cloth_warning].filter(Boolean).map((line) => el("p", { class: "hint-strong" }, line)));
}

async function refreshVision() {
  if (!state || !state.game) return;
  try {
    const data = await api("/api/vision");
    // A question the camera asks (the wheel at rest on a divider) is part of the game's
    // controls: drawn again when it comes or goes, not only with the next move.
    const asked = (camera) => JSON.stringify(((camera || {}).wheel || {}).divider || null);
    const changed = asked(state.camera) !== asked(data.camera);
    state.camera = data.camera;
    if (changed) render(); else renderVision();
  } catch (_) { /* the live stream's banner already says when the companion is away */ }
}

function renderControls(view) {
  $("btn-undo").disabled = !state.can_undo;
  $("btn-redo").disabled = !state.can_redo;
  $("btn-next").disabled = Boolean(state.over);
  $("btn-read").hidden = !state.pending;
  $("btn-fix-dice").hidden = state.pending_kind !== "dice";  // web/static/dice_fix.js
  renderNextDice();
  $("pending").hidden = !state.pending;
  $("pending").textContent = state.pending ? `The camera reads: ${state.pending} Press READ to accept.` : "";
  const extra = $("allocate");
  extra.hidden = !(board().controls && board().controls(view, extra));
  const groups = new Map();
  for (const choice of state.legal || []) {
    if (!groups.has(choice.name)) groups.set(choice.name, []);
    groups.get(choice.name).push(choice);
  }
  const panel = $("choices");
  const parts = [];
  if (groups.size) {
    const who = state.current === null || state.current === undefined ? "" : `${state.players[state.current]}: `;
    parts.push(el("h2", {}, who ? `${who}what happened on the table?` : "What happened on the table?"));
  }
  for (const [, choices] of groups) {
    parts.push(el("div", { class: "choice-group" }, ...choices.map((choice) => moveControl(choice))));
  }
  panel.replaceChildren(...parts);
  panel.hidden = parts.length === 0;
}

// NEXT takes dice the players rolled (classic Run, Hamster, Run!'s Rest and Fatigue):
// one picker per die, labelled with whose die it is, kept while the same dice are due.
function renderNextDice() {
  const labels = state.next_dice || [];
  const box = $("next-dice");
  const key = labels.join("|") + `@${state.seq}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.hidden = labels.length === 0;
  box.replaceChildren(...(labels.length ? [el("span", { class: "label" }, "Roll, then set the dice NEXT takes:")] : []),
    ...labels.map((label) => el("label", {}, `${label} `,
      el("select", { class: "die", "aria-label": label }, el("option", { value: "" }, "?"),
        ...[1, 2, 3, 4, 5, 6].map((v) => el("option", { value: String(v) }, String(v)))))));
}

async function refresh() {
  try {
    const data = await api("/api/state");
    state = null;
    applyState(data);
    lastSeq = data.seq || 0;
  } catch (error) {
    toast(error.message);
  }
}

function connect() {
  if (source) source.close();
  // With a token the stream carries what it unlocks (the secret buttons players enter in
  // turn on the shared tablet); a watcher's stream carries no secret.
  const unlock = token ? `&token=${encodeURIComponent(token)}` : "";
  // v=2: a batch of events carries the state once, with its last event. game: the game
  // shown, so a table now on another game (even at the same change number) resets the page.
  const game = state && state.game_id ? `&game=${state.game_id}` : "";
  source = new EventSource(`/api/stream?after=${lastSeq}&v=2${game}${unlock}`);
  lastMessage = Date.now();
  source.addEventListener("open", () => { $("offline").hidden = true; $("live").classList.add("on"); });
  source.addEventListener("error", () => { $("offline").hidden = false; $("live").classList.remove("on"); });
  source.addEventListener("ping", () => { lastMessage = Date.now(); });
  source.addEventListener("change", (message) => {
    lastMessage = Date.now();
    const data = JSON.parse(message.data);
    if (data.state) applyState(data.state, data.event);
    else if (data.event) addEvent(data.event);  // drawn with the state that ends the batch
  });
  // Another game, or a log the page cannot continue: the whole state again, and a stream
  // that names the game now shown.
  source.addEventListener("reset", () => { source.close(); refresh().then(connect); });
  source.addEventListener("end", () => { source.close(); refresh().then(connect); });
}

// A tablet that slept: reload the state at once, then resume the stream where it stopped.
function wake() {
  if (document.visibilityState !== "visible") return;
  refresh().then(() => { if (Date.now() - lastMessage > 2000) connect(); });
  keepAwake();
}

let wakeLock = null;
async function keepAwake() {
  if (!("wakeLock" in navigator) || !window.isSecureContext) { $("wake").hidden = false; return; }
  try {
    if (!wakeLock || wakeLock.released) wakeLock = await navigator.wakeLock.request("screen");
    $("wake").hidden = true;
  } catch (_) {
    $("wake").hidden = false;
  }
}

// The camera panel: the latest frame with the dice it read, refreshed while it is live.
async function refreshCamera() {
  let status = "";
  let devices = {};
  try { devices = await api("/api/devices"); } catch (_) { return; }
  status = devices.camera || "";
  // A demo table, or a name another table holds on the event's broker: said at the top.
  $("table-note").textContent = devices.notice || "";
  $("table-note").hidden = !devices.notice;
  // The Pi's supply too weak or its chip too hot (the firmware's flags): said at the top.
  const power = devices.power && devices.power !== "ok" ? `Power: ${devices.power}` : "";
  $("power-note").textContent = power;
  $("power-note").hidden = !power;
  $("camera-status").textContent = status;
  // Not live: the status says why, and the last picture is hidden (it would look live).
  $("camera").hidden = !status.startsWith("camera live");
  if (!status.startsWith("camera live")) { $("camera-box").hidden = !status; return; }
  // The picture shows the players' table: only an unlocked tablet asks for it.
  if (!token) { $("camera").hidden = true; $("camera-box").hidden = false; return; }
  const image = new Image();
  image.onload = () => { $("camera").src = image.src; $("camera-box").hidden = false; };
  // No picture now (the game in play reads nothing with the camera): hide the last one.
  image.onerror = () => { $("camera").hidden = true; };
  image.src = `/camera.jpg?t=${Date.now()}&token=${encodeURIComponent(token)}`;
}

async function refreshCalibration() {
  try {
    const data = await api("/api/calibration");
    $("calibration-status").textContent = data.message;
    $("calibration-cells").textContent = Object.entries(data.cells || {}).map(([c, [r, l]]) => `${c}: row ${r}, lane ${l}`).join(" · ");
    if (data.dice && !$("teach-figures").textContent) $("teach-figures").textContent = data.dice;
    $("wheel-calibration").textContent = data.wheel || "";
  } catch (error) { $("calibration-status").textContent = error.message; }
  const image = new Image();
  image.onload = () => { $("calibration-view").src = image.src; $("calibration-view").hidden = false; };
  // No picture (the camera sends none): hide the old one rather than calibrate by it.
  image.onerror = () => { $("calibration-view").hidden = true; };
  image.src = `/calibration.jpg?t=${Date.now()}&token=${encodeURIComponent(token)}`;
}

// What a person can put right by hand in this game (the game lists it; Undo is shared).
function renderByHand() {
  const list = $("by-hand");
  list.querySelectorAll("li.game").forEach((item) => item.remove());
  for (const line of state.by_hand || []) list.append(el("li", { class: "game" }, line));
}

// Each seat's join code for the players' phones (only an unlocked tablet may show them:
// whoever scans a seat's code acts for that seat).
async function showSeatCodes() {
  try {
    const data = await api("/api/seats");
    $("seat-codes").replaceChildren(...data.seats.map((seat) => {
      const picture = el("div", { class: "seat-qr", role: "img", "aria-label": `QR code for ${seat.name}'s phone` });
      picture.innerHTML = seat.svg;  // the companion's own SVG (segno), never user input
      return el("figure", { class: "seat-code" }, picture,
        el("figcaption", {}, el("b", {}, seat.name), ` · code ${seat.code}`, el("br"), el("a", { href: seat.url }, seat.url)));
    }));
  } catch (error) { $("seat-codes").replaceChildren(el("p", {}, error.message)); }
}

// A game's own set-up choices (Rats: the deck, the rounds), drawn from /api/games.
function optionFields(game) {
  return Object.entries(game.options || {}).map(([name, option]) => {
    const input = option.choices
      ? el("select", { name, "data-option": name }, ...option.choices.map((c) => el("option", { value: c.value }, c.label)))
      : el("input", { name, "data-option": name, type: "number", min: String(option.minimum), max: String(option.maximum), inputmode: "numeric" });
    input.value = String(option.default);
    return el("label", {}, `${option.label} `, input);
  });
}

function chosenOptions() {
  const options = {};
  for (const input of $("ng-options").querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.type === "number" ? Number(input.value) : input.value;
  }
  return options;
}

// The change this page shows: NEXT, UNDO, REDO and READ carry it, so when two tablets press
// together only the first applies and the other is told the game just changed.
function shownAt() { return state ? state.seq || 0 : undefined; }
function shownGame() { return state ? state.game_id : undefined; }

function setup() {
  $("btn-next").addEventListener("click", () => {
    // Dice the players rolled that NEXT takes (the pickers beside it), never made up here.
    const pickers = [...$("next-dice").querySelectorAll("select")];
    const body = { intent: "next", at: shownAt(), game: shownGame() };
    // A die left at "?" is never sent as anything: NEXT waits until each is set.
    if (pickers.length && unsetDice(pickers)) return;
    if (pickers.length) body.given = pickers.map((p) => Number(p.value));
    send("/api/intent", body);
  });
  $("btn-undo").addEventListener("click", () => send("/api/intent", { intent: "undo", at: shownAt(), game: shownGame() }));
  $("btn-redo").addEventListener("click", () => send("/api/intent", { intent: "redo", at: shownAt(), game: shownGame() }));
  $("btn-read").addEventListener("click", () => send("/api/intent", { intent: "read", at: shownAt(), game: shownGame() }));
  $("calibration-box").addEventListener("toggle", () => { if ($("calibration-box").open) refreshCalibration(); });
  $("join-box").addEventListener("toggle", () => { if ($("join-box").open) $("join-code").src = "/join.svg"; });
  $("seats-box").addEventListener("toggle", () => { if ($("seats-box").open) showSeatCodes(); });
  $("btn-teach-dice").addEventListener("click", async () => {
    $("teach-figures").textContent = "Teaching…";
    try { $("teach-figures").textContent = (await api("/api/dice/teach", {})).message; }
    catch (error) { $("teach-figures").textContent = error.message; }
  });
  $("btn-wheel-colours").addEventListener("click", async () => {
    try { toast((await api("/api/calibration/wheel-colours", {})).message); } catch (error) { toast(error.message); }
    refreshCalibration();
  });
  $("btn-sample-hand").addEventListener("click", async () => {
    try { toast((await api("/api/calibration/hands", {})).message); } catch (error) { toast(error.message); }
    refreshCalibration();
  });
  $("btn-forget-hands").addEventListener("click", async () => {
    try { toast((await api("/api/calibration/hands", { forget: true })).message); } catch (error) { toast(error.message); }
    refreshCalibration();
  });
  $("btn-calibrate").addEventListener("click", async () => {
    try { toast((await api("/api/calibration", {})).message); } catch (error) { toast(error.message); }
    refreshCalibration();
  });
  $("flip").addEventListener("click", () => {
    const flipped = document.body.classList.toggle("flipped");
    $("flip").setAttribute("aria-pressed", String(flipped));
    localStorage.setItem("flipped", flipped ? "1" : "");
  });
  $("speak").addEventListener("click", () => {
    const on = !localStorage.getItem("speak");
    localStorage.setItem("speak", on ? "1" : "");
    $("speak").setAttribute("aria-pressed", String(on));
    // Said from the tap itself: tablets only allow speech that a touch started.
    if (on && "speechSynthesis" in window) say("Spoken cues on.");
    else if ("speechSynthesis" in window) window.speechSynthesis.cancel();
  });
  if (localStorage.getItem("speak")) $("speak").setAttribute("aria-pressed", "true");
  $("auto").addEventListener("click", () => inOrder(() =>
    api("/api/settings", { every_stop: !keepsEveryStop() })
      .then((data) => { if (data.state) applyState(data.state); })
      .catch((error) => toast(error.message))));
  // Odds on or off for this tablet (some groups find them spoilers); on by default.
  const showOdds = (on) => {
    document.body.classList.toggle("no-odds", !on);
    $("odds").setAttribute("aria-pressed", String(on));
  };
  showOdds(localStorage.getItem("hideOdds") !== "1");
  $("odds").addEventListener("click", () => {
    const on = document.body.classList.contains("no-odds");
    localStorage.setItem("hideOdds", on ? "" : "1");
    showOdds(on);
  });
  if (localStorage.getItem("flipped")) { document.body.classList.add("flipped"); $("flip").setAttribute("aria-pressed", "true"); }
  $("lock").addEventListener("click", () => {
    if (token) {
      api("/api/logout", {}).catch(() => {});  // the token ends on the companion too
      token = ""; sessionStorage.removeItem("tableToken"); refresh().then(connect); return;
    }
    $("pin-error").textContent = "";
    $("pin-dialog").showModal();
  });
  $("btn-lock-all").addEventListener("click", async () => {
    if (!token || !confirm("End every tablet's and phone's access? Each seat gets a new code, and every tablet needs the PIN again.")) return;
    try {
      await api("/api/logout", { all: true });
      token = ""; sessionStorage.removeItem("tableToken");
      toast("Every tablet and phone is locked out; unlock with the PIN to show the new codes.");
      refresh().then(connect);
    } catch (error) { toast(error.message); }
  });
  $("pin-cancel").addEventListener("click", () => $("pin-dialog").close());
  $("pin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const data = await api("/api/login", { pin: $("pin").value });
      token = data.token;
      sessionStorage.setItem("tableToken", token);
      $("pin-dialog").close();
      await refresh();
      connect();
    } catch (error) {
      $("pin-error").textContent = error.message;
    }
  });
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    // A game in progress is never replaced by one tap: the first tap asks, the second starts.
    const start = $("new-game").querySelector("button[type=submit]");
    if (state && state.game && !state.over && start.dataset.confirm !== "yes") {
      start.dataset.confirm = "yes";
      start.textContent = "Start anyway? (the current game is kept)";
      setTimeout(() => { start.dataset.confirm = ""; start.textContent = "Start"; }, 8000);
      return;
    }
    start.dataset.confirm = "";
    start.textContent = "Start";
    const split = (value) => value.split(",").map((s) => s.trim()).filter(Boolean);
    const colours = split($("ng-colours").value);
    send("/api/game", { game: $("ng-game").value, rules: $("ng-rules").value,
      players: split($("ng-players").value), colours: colours.length ? colours : undefined,
      roll_for_us: $("ng-roll").checked, demo: $("ng-demo").checked, options: chosenOptions() })
      .then((started) => {
        if (!started) return;
        // The new game is what the table looks at now: the form folds and the page goes
        // back up to the board (it used to stay down on the form, the game out of sight).
        document.querySelector(".new-game-box").open = false;
        window.scrollTo(0, 0);
      });
  });
  // "Same players again": the latest game's names and colours, one tap into the form.
  api("/api/history/last-players").then((last) => {
    const same = $("ng-same");
    same.textContent = `Same players again: ${last.players.join(", ")}`;
    same.hidden = false;
    same.addEventListener("click", () => {
      $("ng-players").value = last.players.join(", ");
      $("ng-colours").value = last.colours.join(", ");
    });
  }).catch(() => {});
  api("/api/games").then((data) => {
    const games = data.games;
    const fillRules = () => {
      const game = games.find((g) => g.name === $("ng-game").value);
      $("ng-rules").replaceChildren(...game.rules.map((r) => el("option", { value: r }, r)));
      $("ng-rules").value = game.default_rules;
      $("ng-options").replaceChildren(...optionFields(game));
    };
    $("ng-game").replaceChildren(...games.map((g) => el("option", { value: g.name }, g.title)));
    $("ng-game").addEventListener("change", fillRules);
    fillRules();
  }).catch(() => {});
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("click", keepAwake, { once: true });
  setInterval(() => { if (Date.now() - lastMessage > HEARTBEAT_MS) { lastMessage = Date.now(); connect(); } }, 5000);
  refresh().then(connect);
  keepAwake();
  setInterval(() => { if (document.visibilityState === "visible") { refreshCamera(); refreshVision(); } }, 1500);
}

setup();
