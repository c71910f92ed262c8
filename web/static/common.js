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
