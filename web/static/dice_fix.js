// Fixing the camera's dice reading on its own picture (issue 33): tap a die to change its
// face, tap a phantom and choose "Not a die" to remove it, tap where a die was missed to
// add it, then pick its face. Confirm plays the fixed roll, and the companion keeps every
// die's close-up and box to learn this table's dice from (companion dice teach).
// Uses app.js's api() and toast().
"use strict";

const diceFix = { dice: [], removed: [], chosen: -1, width: 1, height: 1 };

function diceFixMarker(die, index) {
  const marker = document.createElement("button");
  marker.type = "button";
  marker.className = "fix-die" + (index === diceFix.chosen ? " chosen" : "") + (die.value ? "" : " unset");
  const side = Math.max(die.size || diceFix.typical, 24);
  marker.style.left = `${100 * die.x / diceFix.width}%`;
  marker.style.top = `${100 * die.y / diceFix.height}%`;
  marker.style.width = marker.style.height = `${100 * side / diceFix.width}%`;
  marker.textContent = die.value ? String(die.value) : "?";
  marker.setAttribute("aria-label", die.value ? `Die showing ${die.value}` : "Die: choose its face");
  marker.addEventListener("click", (event) => { event.stopPropagation(); diceFix.chosen = index; diceFixDraw(); });
  return marker;
}

function diceFixDraw() {
  const layer = document.getElementById("fix-layer");
  layer.replaceChildren(...diceFix.dice.map(diceFixMarker));
  const picking = diceFix.chosen >= 0;
  document.getElementById("fix-faces").hidden = !picking;
  const unset = diceFix.dice.some((die) => !die.value);
  document.getElementById("fix-confirm").disabled = unset || diceFix.dice.length === 0;
  document.getElementById("fix-summary").textContent = diceFix.dice.length
    ? `Roll: ${diceFix.dice.map((d) => d.value || "?").join(", ")}` + (diceFix.removed.length ? ` · ${diceFix.removed.length} removed` : "")
    : "No dice: tap each die on the picture.";
}

function diceFixFace(value) {
  const index = diceFix.chosen;
  if (index < 0) return;
  const die = diceFix.dice[index];
  if (value === 0) {
    if (die.read) diceFix.removed.push({ x: die.x, y: die.y });
    diceFix.dice.splice(index, 1);
  } else {
    die.value = value;
  }
  diceFix.chosen = -1;
  diceFixDraw();
}

function diceFixAdd(event) {
  const picture = document.getElementById("fix-picture");
  const box = picture.getBoundingClientRect();
  const x = (event.clientX - box.left) / box.width * diceFix.width;
  const y = (event.clientY - box.top) / box.height * diceFix.height;
  diceFix.dice.push({ x, y, size: null, value: 0, read: false });
  diceFix.chosen = diceFix.dice.length - 1;
  diceFixDraw();
}

async function diceFixOpen() {
  let shown;
  try { shown = await api("/api/dice/proposal"); } catch (error) { toast(error.message); return; }
  const sizes = shown.dice.map((d) => d.size).sort((a, b) => a - b);
  Object.assign(diceFix, {
    width: shown.width, height: shown.height, removed: [], chosen: -1,
    typical: sizes.length ? sizes[Math.floor(sizes.length / 2)] : shown.width / 10,
    dice: shown.dice.map((d) => ({ x: d.x, y: d.y, size: d.size, value: d.value || 0, read: true })),
  });
  document.getElementById("fix-picture").src = `/dice/proposal.jpg?t=${Date.now()}`;
  // The whole picture and the buttons below it fit the screen: at most 55 % of its height.
  document.querySelector(".fix-frame").style.width = `min(100%, ${(55 * shown.width / shown.height).toFixed(1)}vh)`;
  diceFixDraw();
  document.getElementById("dice-fix").showModal();
}

async function diceFixConfirm() {
  const body = {
    dice: diceFix.dice.map((d) => ({ x: d.x, y: d.y, value: d.value, size: d.size })),
    removed: diceFix.removed,
  };
  try {
    const done = await api("/api/dice/correct", body);
    document.getElementById("dice-fix").close();
    toast(`Roll ${done.values.join(", ")} taken${done.kept ? "; kept to teach the camera your dice" : ""}.`);
  } catch (error) { toast(error.message); }
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("btn-fix-dice").addEventListener("click", diceFixOpen);
  document.getElementById("fix-layer").addEventListener("click", diceFixAdd);
  document.getElementById("fix-cancel").addEventListener("click", () => document.getElementById("dice-fix").close());
  document.getElementById("fix-confirm").addEventListener("click", diceFixConfirm);
  for (const button of document.querySelectorAll("#fix-faces button")) {
    button.addEventListener("click", () => diceFixFace(Number(button.dataset.face)));
  }
});
