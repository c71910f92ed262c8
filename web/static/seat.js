// A player's phone: the seat it joined with the tablet's code, that seat's secrets (a
// phone-deck hand, a secret allocation) and only the moves that seat may make. The game's
// board module draws the panel (`phone(view, panel, seat)`); a game without one still gets
// the seat's legal moves as buttons.
"use strict";

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const storageKey = `seat:${code}`;
let state = null;
let token = localStorage.getItem(storageKey) || "";
let source = null;
let lastNotes = "";
// The companion pings every open stream every few seconds; a stream silent for longer is
// dead (the Wi-Fi dropped, the phone slept, or the companion was full and refused it).
const HEARTBEAT_MS = 25000;
let lastMessage = 0;

async function api(path, body) {
  const headers = token ? { "X-Table-Token": token } : {};
  const options = body === undefined ? { headers } : {
    method: "POST", headers: Object.assign({ "Content-Type": "application/json" }, headers), body: JSON.stringify(body),
  };
  const response = await reach(path, options);
  const data = await response.json().catch(() => ({ error: "The companion did not answer." }));
  if (!response.ok) throw Object.assign(new Error(data.error || "Something went wrong."), { status: response.status });
  return data;
}

function send(path, body) {
  return inOrder(() => sendNow(path, body));
}

async function sendNow(path, body) {
  try {
    const data = await api(path, body);
    if (data.state) show(data.state);
    return true;
  } catch (error) {
    if (error.status === 401) { forget(); return false; }
    toast(error.message);
    return false;
  }
}

function forget() {
  token = "";
  localStorage.removeItem(storageKey);
  $("seat-title").textContent = "Not joined";
  $("prompt").textContent = "This phone's seat has ended (a new game gives new codes, and the tablet can end every phone's access): scan your seat's code on the tablet again.";
  $("mine").replaceChildren();
}

async function join() {
  if (token) return true;
  try {
    const data = await api("/api/join", { code });
    token = data.token;
    localStorage.setItem(storageKey, token);
    return true;
  } catch (error) {
    $("seat-title").textContent = "Not joined";
    $("prompt").textContent = error.message;
    return false;
  }
}

function render() {
  if (!state) return;
  const seat = state.seat;
  if (seat === null || seat === undefined) { forget(); return; }
  const view = state.view || {};
  const name = (state.players || [])[seat] || "";
  $("seat-title").textContent = `${name} · ${state.title}`;
  $("round").textContent = state.round ? `Round ${state.round}` : "Set-up";
  $("prompt").textContent = state.prompt || "";
  document.body.dataset.game = state.game || "";
  document.body.dataset.seq = String(state.seq || 0);  // tests wait for the page to catch up
  const notes = (view.notes || []).join(" ");
  if (notes && notes !== lastNotes) {
    lastNotes = notes;
    $("happened").textContent = notes;
    $("happened").hidden = false;
  }
  const board = Boards[state.board];
  const drawn = board && board.phone ? board.phone(view, $("mine"), seat) : false;
  if (!drawn) $("mine").replaceChildren(el("p", {}, `You are ${name}. Your moves appear below when it is your turn.`));
  const mine = drawn ? [] : (state.legal || []).filter((c) => c.seat === seat);
  $("seat-choices").replaceChildren(...mine.map((c) => moveControl(c, { big: true })));
  $("seat-choices").hidden = mine.length === 0;
}

// The phone's own tap is answered twice (the reply, then the live stream) with the same
// state: the repeat is not drawn again, so a quick next tap never lands on a replaced button.
let drawnJson = "";

function show(next) {
  const json = canonical(next);
  if (json === drawnJson) return;
  drawnJson = json;
  state = Object.assign({}, state, next);
  render();
}

async function refresh() {
  try {
    state = await api("/api/state");
    render();
  } catch (error) {
    if (error.status === 401) forget(); else toast(error.message);
  }
}

function connect() {
  if (source) source.close();
  // Resume from the state just loaded, so a change made in between is never missed.
  const after = (state && state.seq) || 0;
  // v=2: a batch of events carries the state once, with its last event (the phone draws
  // only states). game: the game shown, so a table now on another game resets the phone.
  const game = state && state.game_id ? `&game=${state.game_id}` : "";
  source = new EventSource(`/api/stream?after=${after}&v=2${game}&token=${encodeURIComponent(token)}`);
  lastMessage = Date.now();
  source.addEventListener("open", () => { $("offline").hidden = true; $("live").classList.add("on"); });
  source.addEventListener("error", () => { $("offline").hidden = false; $("live").classList.remove("on"); });
  source.addEventListener("ping", () => { lastMessage = Date.now(); });
  source.addEventListener("change", (message) => {
    lastMessage = Date.now();
    const data = JSON.parse(message.data);
    if (data.state) show(data.state);
  });
  source.addEventListener("reset", () => { source.close(); refresh().then(connect); });
  source.addEventListener("end", () => { source.close(); refresh().then(connect); });
}

// A phone that slept: reload the state at once, and open the stream again if it went quiet.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible") return;
  refresh().then(() => { if (source && token && Date.now() - lastMessage > 2000) connect(); });
});
// A stream that died without a word (no ping for a while) is opened again from the state
// shown, so the phone never sits on an old state while it looks live.
setInterval(() => {
  if (!source || !token || Date.now() - lastMessage <= HEARTBEAT_MS) return;
  lastMessage = Date.now();
  refresh().then(connect);
}, 5000);
join().then((joined) => { if (joined) refresh().then(connect); });
