// Run, Hamster, Run!: the conveyor belt, the Pit, speed and alligators, each hamster's chips,
// the secret Pluck allocation and the latest tests. Registered under the spec's board name.
"use strict";

function targetsBySquare() {
  const targets = new Map();
  for (const choice of state.legal || []) {
    const args = choice.args || {};
    let square = args.to;
    if (choice.name === "run" && args.path && args.path.length === 1) square = args.path[0];
    if (Array.isArray(square) && ["place", "run", "step", "sidestep"].includes(choice.name)) {
      targets.set(square.join(","), choice);
    }
  }
  return targets;
}

function renderBelt(view) {
  const belt = $("belt");
  const hamsters = view.hamsters || [];
  const bySquare = new Map(hamsters.filter((h) => h.row > 0 && !h.eaten).map((h) => [`${h.row},${h.lane}`, h]));
  const targets = token ? targetsBySquare() : new Map();
  const cells = [];
  for (let row = 10; row >= 1; row--) {
    const star = row === view.asterisk_row;
    cells.push(el("div", { class: star ? "star" : "rowlabel" }, star ? "✱" : String(row)));
    for (let lane = 1; lane <= 5; lane++) {
      const key = `${row},${lane}`;
      const cell = el("div", { class: "cell" + (star ? " asterisk" : ""), "data-square": key });
      const hamster = bySquare.get(key);
      if (hamster) cell.append(token_(hamster, hamster.seat === state.current));
      const choice = targets.get(key);
      if (choice) {
        cell.classList.add("target");
        cell.title = choice.label;
        cell.addEventListener("click", () => send("/api/move", { seat: choice.seat, name: choice.name, args: choice.args }));
      }
      cells.push(cell);
    }
    cells.push(el("div", { class: star ? "star" : "rowlabel" }, star ? "✱" : ""));
  }
  belt.replaceChildren(...cells);
  const inPit = hamsters.filter((h) => h.in_pit);
  $("pit").replaceChildren(el("span", { class: "label" }, `Alligator Pit · ${view.alligators ?? "–"} alligator${view.alligators === 1 ? "" : "s"}`),
    ...inPit.map((h) => token_(h, h.seat === state.current)));
  // Below the Pit, not in it: the Pit keeps its height however many lines the odds take.
  let odds = $("chomp-odds");
  if (!odds) {
    odds = el("div", { id: "chomp-odds" });
    $("pit").after(odds);
  }
  odds.replaceChildren(chompOdds(view));
}

// What the alligators may do on the next NEXT, while the belt phase waits for it.
function chompOdds(view) {
  const chomp = view.odds && view.odds.chomp;
  if (!chomp) return "";
  const about = chomp.exact ? "" : "about ";
  const head = view.rules === "v2.1"
    ? `When NEXT brings the alligators, each hamster in the Pit tests against them: ${about}${chomp.any_chomp}% that someone is Chomp!-ed.`
    : `When NEXT brings the alligators: ${about}${chomp.arrives}% that another one comes, ${about}${chomp.any_chomp}% at least one Chomp!.`;
  return el("div", { class: "odds chomp-odds", title: "exact chances from the alligator phase's own dice" },
    el("div", {}, head),
    ...chomp.hamsters.map((h) => el("div", {}, `${h.name}: ${about}${h.chomped}% Chomp!-ed, ${about}${h.eaten}% eaten`)));
}

function renderCounters(view) {
  document.querySelector(".counter .label").textContent = "Speed";
  document.querySelector(".counter.gator .label").textContent = "Alligators";
  $("speed").textContent = view.speed ?? "–";
  $("alligators").textContent = view.alligators ?? "–";
  $("speed-chips").textContent = "●".repeat(Math.min(view.speed || 0, 12));
  $("gator-chips").textContent = "▲".repeat(Math.min(view.alligators || 0, 12));
}

function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th";
  return `${n}${suffix}`;
}

function renderHamsters(view) {
  const order = view.initiative || [];
  // The resolving hamster's chance in a Mettle test against each hamster near it.
  const mettle = new Map(((view.odds && view.odds.mettle) || []).map((m) => [m.seat, m]));
  const current = (view.hamsters || []).find((h) => h.seat === state.current);
  const rows = (view.hamsters || []).map((h) => {
    const traits = h.traits
      ? el("div", { class: "traits" },
          ...[["scamper", "Scamper"], ["mettle", "Mettle"], ["friskiness", "Frisk"]].map(([key, title]) =>
            el("div", { class: "trait" }, el("b", {}, String(h.traits[key] - (h.face_down[key] || 0))),
              el("small", {}, `${title}${h.face_down[key] ? ` +${h.face_down[key]}↓` : ""}`))),
          el("div", { class: "trait" }, el("b", {}, String(h.fatigue)), el("small", {}, "Fatigue")))
      : el("div", { class: "traits" }, el("div", { class: "trait" }, el("b", {}, h.allocated ? "✓" : "…"),
          el("small", {}, h.allocated ? "allocated" : "allocating")));
    const where = h.eaten ? "eaten" : h.in_pit ? "in the Pit" : h.row ? `row ${h.row}, lane ${h.lane}` : "not placed";
    const bits = [where];
    if (h.initiative) bits.push(`initiative: ${ordinal(h.initiative)}`);
    if (h.declared) bits.push(`declared ${h.declared}`);
    if (h.passed_out) bits.push("passed out");
    const test = mettle.get(h.seat);
    const odds = test ? el("div", { class: "odds mettle-odds", title: "chance in a Mettle test: one chip drawn from the HAT" },
      test.mine ? `Mettle test vs ${current ? current.name : "the mover"}: ${test.mine} vs ${test.theirs} chips, ${test.percent}% for ${current ? current.name : "the mover"}`
        : `${current ? current.name : "The mover"} has no Mettle: no test possible`) : "";
    return el("div", { class: "ham" + (h.eaten ? " eaten" : "") }, token_(h, h.seat === state.current),
      el("div", {}, el("div", { class: "name" }, h.name), el("div", { class: "meta" }, bits.join(" · ")), odds), traits);
  });
  $("hamsters").replaceChildren(...rows);
}

// The shared tablet shows one hamster's secret form at a time (the first still to allocate,
// or the one picked by name): all of them at once ran below the first screen of a 1280x800
// tablet, and only one player types at a time anyway. A phone shows its own hamster's.
function renderAllocation(view, panel, seat = null) {
  const alive = (view.hamsters || []).filter((h) => !h.eaten && (seat === null || h.seat === seat));
  if (seat !== null) {
    panel.replaceChildren(el("h2", {}, "Allocate your Pluck: nobody else sees it until every hamster has allocated."),
      ...alive.map((h) => keep(panel, `alloc-${h.seat}-${state.round}-${h.allocated ? "done" : "open"}`, () => allocationForm(h))));
    return;
  }
  const picked = alive.find((h) => String(h.seat) === panel.dataset.pick && panel.dataset.round === String(state.round));
  const shown = picked || alive.find((h) => !h.allocated);
  const names = el("div", { class: "alloc-who", role: "group", "aria-label": "Whose split" }, ...alive.map((h) =>
    el("button", { type: "button", class: `big${h === shown ? " now" : ""}`, "aria-pressed": String(h === shown),
      onclick: () => { panel.dataset.pick = String(h.seat); panel.dataset.round = String(state.round); renderAllocation(view, panel); } },
    `${h.name} ${h.allocated ? "✓" : "…"}`)));
  const waiting = alive.filter((h) => !h.allocated).length;
  const title = waiting ? `Allocate in secret, one player at a time (then hide the screen): ${waiting} to go.`
    : "Every hamster has allocated: NEXT reveals the splits.";
  const form = shown ? [keep(panel, `alloc-${shown.seat}-${state.round}-${shown.allocated ? "done" : "open"}`, () => allocationForm(shown))] : [];
  panel.replaceChildren(el("h2", {}, title), names, ...form);
}

function allocationForm(h) {
  const inputs = ["scamper", "mettle", "friskiness"].map((trait) =>
    el("label", {}, `${trait} `, el("input", { type: "number", min: "0", max: "7", value: "0", name: trait })));
  // How many chips this hamster splits: every chip not on its Fatigue pile.
  const chips = 7 - (h.fatigue || 0);
  const form = el("form", { class: "alloc" }, el("b", {}, `${h.name}${h.allocated ? " ✓" : ""}`),
    el("span", { class: "meta" }, `${chips} chips to split`), el("div", { class: "alloc-traits" }, ...inputs),
    ...(state.rules === "v2.1" ? [el("label", {}, "against the alligators ",
      el("select", { name: "against" }, ...["largest", "scamper", "mettle", "friskiness"].map((t) =>
        el("option", { value: t }, t))))] : []),
    el("button", { type: "submit", class: "big" }, h.allocated ? "Change" : "Allocate"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const sent = await send("/api/move", { seat: h.seat, name: "allocate", args: {
      scamper: Number(data.get("scamper")), mettle: Number(data.get("mettle")), friskiness: Number(data.get("friskiness")),
      ...(data.get("against") ? { against_alligators: data.get("against") } : {}) } });
    if (!sent) form.reset();  // a refused split is cleared, so nobody reads it off the screen
  });
  return form;
}

function renderTests(view) {
  $("tests").replaceChildren(...(view.tests || []).slice(-4).reverse().map((t) =>
    el("div", {}, `${t.why}: ${t.chips[0]} vs ${t.chips[1]} chips (${percentText(t.odds)} for ${t.initiator}) → ${t.winner}`)));
}

(window.Boards = window.Boards || {})["run-hamster-run"] = {
  render(view) {
    renderBelt(view);
    renderCounters(view);
    renderHamsters(view);
    renderTests(view);
  },
  // The latest HAT test, for "what just happened" at the top of the page.
  happened(view) {
    const t = (view.tests || []).slice(-1)[0];
    return t ? [`${t.why}: ${t.winner} wins (${t.chips[0]} against ${t.chips[1]} chips).`] : [];
  },
  // The secret allocation form, shown while the allocate phase is open.
  controls(view, panel) {
    if (state.phase !== "allocate") return false;
    renderAllocation(view, panel);
    return true;
  },
  // A player's phone: the secret allocation for that hamster alone, then its moves.
  phone(view, panel, seat) {
    const hamster = (view.hamsters || []).find((h) => h.seat === seat);
    const moves = (state.legal || []).filter((c) => c.seat === seat).map((c) => moveControl(c, { big: true }));
    const where = !hamster ? "" : hamster.eaten ? "eaten" : hamster.in_pit ? "in the Pit" : `row ${hamster.row ?? "–"}`;
    const status = el("p", {}, hamster ? `${hamster.name}: ${where}` : "");
    const parts = [status];
    if (state.phase === "allocate" && hamster && !hamster.eaten) {
      parts.push(keep(panel, `alloc-${seat}-${state.round}-${hamster.allocated ? "done" : "open"}`,
        () => allocationForm(hamster)));
    }
    if (moves.length) parts.push(el("div", { class: "choice-group" }, ...moves));
    panel.replaceChildren(...parts);
    return true;
  },
};
