// What the tablet page and a player's phone page share: element helpers, the toast, the
// board registry, and the service worker that makes the page installable.
"use strict";

const $ = (id) => document.getElementById(id);
// One board module per game (web/static/games/<board>.js) registers itself here under the
// board name the game's spec gives; a page draws whichever the state names.
const Boards = window.Boards || (window.Boards = {});

// A DOM element with attributes ("on…" are listeners; null or undefined: left out).
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// A form a player is filling in survives a redraw (another player's change arriving
// mid-typing): the element already drawn under this key is reused as it is.
function keep(panel, key, build) {
  const found = panel.querySelector(`[data-keep="${key}"]`);
  if (found) return found;
  const made = build();
  made.dataset.keep = key;
  return made;
}

// JSON with every object's keys in order (a reply and the live stream order them differently),
// to tell the stream's repeat of a change the page already drew.
function canonical(value) {
  return JSON.stringify(value, (_, v) => (v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

// fetch, with a player's sentence when the companion cannot be reached at all (the
// browser's own is "Failed to fetch").
const AWAY = "The companion did not answer: it may be off or out of reach. Try again once it is back.";
function reach(path, options) {
  return fetch(path, options).catch(() => { throw new Error(AWAY); });
}

// A chance (0 to 1) as the companion writes it (companion/engine/percent.py): whole percents
// from 1 to 99, else one significant figure of the distance from 0 or 100 (0.3, 0.06, 99.7);
// 0 and 100 only for what is certain.
function percentText(chance) {
  if (chance <= 0) return "0%";
  if (chance >= 1) return "100%";
  const value = chance * 100;
  if (value >= 1 && value <= 99) return `${Math.round(value)}%`;
  const CLOSEST = 1e-9;  // past a float's precision, the closest to 0 or 100 written (percent.py)
  const oneFigure = (x) => Number(Math.max(x, CLOSEST).toPrecision(1));
  const decimalsOf = (x) => Math.max(0, -Math.floor(Math.log10(x)));
  if (value < 1) {
    const small = oneFigure(value);
    return `${small.toFixed(decimalsOf(small))}%`;
  }
  const near = oneFigure(100 - value);
  return `${(100 - near).toFixed(decimalsOf(near))}%`;
}

// Dice the players rolled, typed in: one picker per die that starts at "?" (never a made-up
// face), and a submit that refuses, naming the dice still unset, until every die has one.
// `kept` holds faces set before a redraw; `changed(faces)` is told each change so it can keep
// them; `submit(faces)` receives whole numbers only.
function handDiceForm(count, label, submit, { kept = [], changed = () => {}, sides = 6, names = [] } = {}) {
  const pickers = Array.from({ length: count }, (_, i) => {
    const picker = el("select", { class: "die", "aria-label": names[i] || `die ${i + 1}` },
      el("option", { value: "" }, "?"),
      ...Array.from({ length: sides }, (_, k) => el("option", { value: String(k + 1) }, String(k + 1))));
    if (kept[i]) picker.value = kept[i];
    picker.addEventListener("change", () => {
      picker.removeAttribute("aria-invalid");
      changed(pickers.map((p) => p.value));
    });
    return picker;
  });
  const form = el("form", { class: "dice-entry" }, ...pickers, el("button", { type: "submit" }, label));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!unsetDice(pickers)) submit(pickers.map((p) => Number(p.value)));
  });
  return form;
}

// A move the engine offered, as a button; one that takes dice rolled by hand gets a picker
// per die first. Faces set survive a redraw (a camera note, another phone's move) while the
// same move is offered. `send` is the page's own (tablet or phone).
const pickedDice = new Map();
function moveControl(choice, { big = false } = {}) {
  const move = (given) => send("/api/move", { seat: choice.seat, name: choice.name, args: choice.args, given });
  if (!choice.dice) return el("button", { type: "button", class: big ? "big" : null, onclick: () => move([]) }, choice.label);
  const key = `${choice.seat}|${choice.name}|${JSON.stringify(choice.args)}`;
  return handDiceForm(choice.dice, choice.label, (faces) => { pickedDice.delete(key); move(faces); },
    { kept: pickedDice.get(key) || [], changed: (faces) => pickedDice.set(key, faces) });
}

// Pickers still at "?": each is marked, a toast names them, and the caller sends nothing.
function unsetDice(pickers) {
  const unset = pickers.filter((p) => !p.value);
  unset.forEach((p) => p.setAttribute("aria-invalid", "true"));
  if (!unset.length) return false;
  const names = unset.map((p) => p.getAttribute("aria-label"));
  toast(`Set what each die shows first: ${names.join(", ")} ${unset.length === 1 ? "is" : "are"} still "?".`);
  return true;
}

// Taps go to the companion one after another, in the order they were made: a quick second
// tap waits for the first one's answer instead of racing it (Rats' face taps 300 ms apart
// were lost or slid one die along).
let sendQueue = Promise.resolve();
function inOrder(work) {
  const next = sendQueue.then(work, work);
  sendQueue = next.catch(() => {});
  return next;
}

function toast(message) {
  const box = $("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

// Installable, and "the table is off" instead of a browser error when the Pi is away.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}
