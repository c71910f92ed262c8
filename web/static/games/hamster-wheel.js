// Hamster Wheel: each hand by colour in big numbers, the upright wheel drawn from the side
// with its twelve compartments (the lowest marked, where the pyramid started, where a piece
// may go now), pieces set aside by Higher Powers, and the forms for what the camera gives:
// a failed try (pre-filled with the pieces the camera sees on the table, or saying why it
// cannot count them just now), the wheel's rotation, and pieces that fell between turns.
// Registered under the spec's board name.
"use strict";

const WHEEL_COLOURS = { red: "#e4574c", orange: "#f39a3d", yellow: "#f2d04b", green: "#5cc98b",
  blue: "#4f8fe6", purple: "#a77bdb", white: "#f4f4f4", black: "#222" };
const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

function pieceDots(hand) {
  return Object.entries(hand).map(([colour, n]) =>
    el("span", { class: "hw-piece", style: `background:${WHEEL_COLOURS[colour] || "#ccc"}`, title: colour }, String(n)));
}

function drawWheel(wheel) {
  const size = 320, centre = size / 2, outer = 150, inner = 112;
  const targets = new Set(Object.values(wheel.targets).filter(Boolean));
  const parts = [svg("circle", { cx: centre, cy: centre, r: outer, class: "hw-rim" })];
  const n = wheel.sections;
  wheel.compartments.forEach((c, i) => {
    // The lowest compartment is drawn at the bottom; the rest follow clockwise.
    const angle = ((i - (wheel.lowest - 1)) / n) * 2 * Math.PI + Math.PI / 2;
    const x = centre + Math.cos(angle) * (outer + inner) / 2;
    const y = centre + Math.sin(angle) * (outer + inner) / 2;
    const cls = ["hw-cell", c.lowest ? "low" : "", targets.has(c.number) ? "target" : "",
      c.uncertain ? "uncertain" : "", c.number === wheel.pyramid_start ? "start" : ""].join(" ");
    parts.push(svg("circle", { cx: x, cy: y, r: 20, class: cls, "data-number": c.number }));
    parts.push(svg("text", { x, y: y - 8, class: "hw-num" }, String(c.number)));
    c.pieces.forEach((colour, k) => parts.push(svg("circle", {
      cx: x - 11 + (k % 3) * 11, cy: y + 4 + Math.floor(k / 3) * 10, r: 5.5,
      fill: WHEEL_COLOURS[colour] || "#ccc", stroke: "#000", "stroke-width": 0.5 })));
  });
  // How far the ring has rolled (not the game's turns, counted beside the wheel): said only
  // once it has rolled, so "0 turns" never stands beside "Turns 21".
  if (wheel.turns) parts.push(svg("text", { x: centre, y: centre, class: "hw-turns" }, `ring rolled ${wheel.turns}×`));
  return svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "hw-wheel", role: "img",
    "aria-label": `The wheel: compartment ${wheel.lowest} is lowest` }, ...parts);
}

function renderHands(view) {
  const teams = view.teams || null;
  const rows = view.players.map((p) => el("div", { class: "ham hw-hand" + (!state.over && p.seat === state.current ? " current" : "") },
    el("div", { class: "hw-count" }, String(p.pieces)),
    el("div", {}, el("div", { class: "name" }, p.name + (p.team === null ? "" : ` · team ${p.team + 1}`)),
      el("div", { class: "hw-pieces" }, ...pieceDots(p.hand)))));
  if (teams) rows.push(...teams.map((t) => el("div", { class: "meta" }, `Team ${t.team + 1}: ${t.pieces} pieces left`)));
  $("hamsters").replaceChildren(...rows);
}

function colourCounter(name, count) {
  return el("label", { class: "hw-colour" },
    el("span", { class: "hw-piece", style: `background:${WHEEL_COLOURS[name]}` }, ""),
    el("input", { type: "number", min: "0", max: "9", value: String(count), name, "aria-label": `${name} pieces` }));
}

function fellFrom(form) {
  const fell = [];
  for (const name of Object.keys(WHEEL_COLOURS)) {
    const n = Number(new FormData(form).get(name) || 0);
    for (let i = 0; i < n; i++) fell.push(name);
  }
  return fell;
}

function renderForms(view, panel) {
  const seat = state.current;
  const note = (state.camera || {}).wheel || {};
  const proposal = note.proposal || [];
  const counts = Object.fromEntries(Object.keys(WHEEL_COLOURS).map((c) => [c, proposal.filter((p) => p === c).length]));
  // The camera follows the ring but cannot count the pieces: the form is left at nought
  // (an old count would look like the camera's) and says why, so the player counts them.
  const uncounted = (note.pieces_reason || "").replace(/[. ]+$/, "");
  const notCounted = uncounted ? [el("p", { class: "hw-uncounted", role: "status" },
    `The camera cannot count the fallen pieces just now (${uncounted}): count them in here.`)] : [];
  // A piece counted where the camera saw it before the ring rolled in front: say where to look.
  if (!uncounted && proposal.length && note.behind_ring_line) {
    notCounted.push(el("p", { class: "hw-uncounted", role: "status" }, note.behind_ring_line));
  }
  // The standing ring hides a strip of table from the camera: a piece that fell straight
  // there was never in a picture, so every count the camera makes says where to look.
  if (note.look_behind_line) {
    notCounted.push(el("p", { class: "hw-look-behind" }, note.look_behind_line));
  }
  const failed = el("form", { class: "hw-form", id: "hw-failed" }, el("h2", {}, "Failed try: what fell out?"),
    ...notCounted,
    el("div", { class: "hw-colours" }, ...Object.entries(counts).map(([c, n]) => colourCounter(c, n))),
    el("label", {}, el("input", { type: "checkbox", name: "stayed", checked: "" }), " the chosen piece stayed in the wheel"),
    el("button", { type: "submit", class: "big" }, "Failed try"));
  failed.addEventListener("submit", (event) => {
    event.preventDefault();
    // The counts are what lies on the table (the camera's proposal): a chosen piece that
    // did not stay lies there too, and it goes back to the hand, not to the player as fallen.
    const stayed = failed.elements.stayed.checked;
    const fell = fellFrom(failed);
    const chosen = view.turn.placed;
    if (!stayed && chosen && fell.includes(chosen)) fell.splice(fell.indexOf(chosen), 1);
    send("/api/move", { seat, name: "fail", args: { fell, stayed } });
  });
  const rolled = el("form", { class: "hw-form" }, el("label", {}, "Wheel rolled: lowest compartment ",
    el("input", { type: "number", min: "1", max: String(view.wheel.sections), value: String(view.wheel.lowest), name: "lowest" })),
    el("button", { type: "submit" }, "Set"));
  rolled.addEventListener("submit", (event) => {
    event.preventDefault();
    send("/api/move", { seat, name: "turn_wheel", args: { lowest: Number(rolled.elements.lowest.value) } });
  });
  const higher = el("form", { class: "hw-form" }, el("h2", {}, "Fell with nobody at the wheel (Higher Powers)"),
    el("div", { class: "hw-colours" }, ...Object.keys(WHEEL_COLOURS).map((c) => colourCounter(c, 0))),
    el("button", { type: "submit" }, "Set aside"));
  higher.addEventListener("submit", (event) => {
    event.preventDefault();
    send("/api/move", { seat, name: "higher_powers", args: { fell: fellFrom(higher) } });
  });
  const byHand = el("details", { class: "hw-by-hand" }, el("summary", {}, "The wheel rolled, or pieces fell between turns…"),
    rolled, ...(view.turn.placed || view.turn.passed ? [] : [higher]));
  // The panel is drawn anew whenever anything changes (a camera note, another phone's
  // move): a player who opened it and typed the lowest compartment keeps both.
  const before = panel.querySelector(".hw-by-hand");
  if (before && before.open) {
    byHand.open = true;
    const typed = before.querySelector("input[name=lowest]");
    if (typed && typed.value !== typed.defaultValue) rolled.elements.lowest.value = typed.value;
  }
  const asked = askPanel(view);
  panel.replaceChildren(...(asked ? [asked] : []), failed, byHand);
}

// Without a camera on the wheel, what it would have read is asked for after pieces fall
// (never guessed silently): the lowest compartment by one tap on the wheel drawing, and
// where each doubtful piece fell from, or "I don't know" (the companion says what it assumed).
function cameraFollowsWheel() {
  const note = (state.camera || {}).wheel;
  return Boolean(note && note.seen);
}

function askPanel(view) {
  const ask = view.ask || {};
  const seat = state.current ?? 0;
  if (cameraFollowsWheel()) return dividerPanel(seat);
  if (!(ask.lowest || (ask.fell || []).length)) return null;
  const parts = [el("h2", {}, "Pieces fell: help the companion follow the wheel")];
  if (ask.lowest) {
    parts.push(el("p", { class: "hw-ask-lowest" }, "Which compartment is lowest now? Tap it on the wheel."));
    askForLowest(view.wheel.sections, seat);
  }
  for (const fell of ask.fell || []) {
    parts.push(el("p", {}, `Where did the ${fell.colour} piece fall from?`),
      el("div", { class: "hw-ask-choices" }, ...fell.choices.map((number) => {
        const button = el("button", { type: "button" }, `Compartment ${number}`);
        button.addEventListener("click", () => send("/api/move",
          { seat, name: "fell_from", args: { colour: fell.colour, from: number } }));
        return button;
      })));
  }
  if ((ask.fell || []).length) {
    const unsure = el("button", { type: "button", class: "hw-ask-unsure" }, "I don't know");
    unsure.addEventListener("click", () => send("/api/move", { seat, name: "fell_from", args: {} }));
    parts.push(unsure);
  }
  return el("section", { class: "hw-ask", id: "hw-ask" }, ...parts);
}

// The camera follows the wheel but it came to rest on a divider, nearer than the reading
// can tell apart: one tap says which of the two compartments is lower (never guessed).
function dividerPanel(seat) {
  const divider = ((state.camera || {}).wheel || {}).divider;
  if (!divider) return null;
  const [first, second] = divider;
  return el("section", { class: "hw-ask", id: "hw-ask" },
    el("h2", {}, `The wheel rests between compartments ${first} and ${second}`),
    el("p", {}, "Which one is lower?"),
    el("div", { class: "hw-ask-choices" }, ...divider.map((number) => {
      const button = el("button", { type: "button" }, `Compartment ${number}`);
      button.addEventListener("click", () => send("/api/move", { seat, name: "turn_wheel", args: { lowest: number } }));
      return button;
    })));
}

function askForLowest(sections, seat) {
  // The compartments of the drawing become buttons: one tap says which one is lowest.
  const drawing = document.querySelector("#belt .hw-wheel");
  if (!drawing) return;
  drawing.classList.add("asking");
  drawing.setAttribute("role", "group");  // an image holds no buttons: a group of them now
  for (const cell of drawing.querySelectorAll(".hw-cell")) {
    const number = Number(cell.getAttribute("data-number"));
    cell.setAttribute("role", "button");
    cell.setAttribute("tabindex", "0");
    cell.setAttribute("aria-label", `Compartment ${number} of ${sections} is lowest now`);
    const choose = () => send("/api/move", { seat, name: "turn_wheel", args: { lowest: number } });
    cell.addEventListener("click", choose);
    cell.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(); }
    });
  }
}

(window.Boards = window.Boards || {})["hamster-wheel"] = {
  render(view) {
    const wheel = view.wheel;
    const note = (state.camera || {}).wheel || {};
    const aside = view.aside.length ? `Set aside for the next to fail: ${view.aside.join(", ")}` : "";
    $("belt").replaceChildren(drawWheel(wheel));
    $("pit").replaceChildren(
      el("span", { class: "label" }, `Lowest: ${wheel.lowest_two.join(" and ")} · pyramid started in ${wheel.pyramid_start} · opening ${wheel.opening}`),
      ...(note.drifted_far ? [el("span", { class: "label hint-strong" }, note.hint)] : []),
      ...(aside ? [el("span", { class: "label" }, aside)] : []));
    document.querySelector(".counter .label").textContent = "Turns";
    document.querySelector(".counter.gator .label").textContent = "Failed tries";
    $("speed").textContent = String(view.counts.turns);
    $("alligators").textContent = String(view.counts.failures);
    $("speed-chips").textContent = `${view.counts.taken} pieces taken back`;
    $("gator-chips").textContent = "";
    renderHands(view);
    $("tests").replaceChildren();
  },
  controls(view, panel) {
    if (state.over || state.current === null || state.current === undefined) return false;
    renderForms(view, panel);
    return true;
  },
};
