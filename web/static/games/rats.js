// Rats: every rat's pool (dice drawn by size, with the face rolled when a roll is on),
// wounds, Hate, cards and Dominance hand with its poker name; the challenge in play with
// each rat's exact chance to pass; loot, wounds and the nest. The same pieces make each
// player's phone panel (`phone`): one tap per die, two per card, and that rat's decisions.
"use strict";

const RAT_SUITS = [["c", "♣", "Fight"], ["s", "♠", "Sneak"], ["d", "♦", "Think"], ["h", "♥", "Burrow"]];
const RAT_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const RAT_TYPES = { fight: "Fight", sneak: "Sneak", think: "Think" };
const RAT_BONUS = [4, 6, 8, 10];

function ratMove(seat, name, args = {}, given = []) {
  return send("/api/move", { seat, name, args, given });
}

// The roll under way (a tunnel challenge, or a scrap in the nest), if any.
function ratContest(view) {
  const challenge = view.challenge;
  if (view.nest && view.nest.fight) return view.nest.fight;
  if (challenge && !challenge.resolved) return challenge;
  return null;
}

function dieShape(size, face, extra = {}) {
  const label = face === null || face === undefined ? `d${size}` : String(face);
  const cls = `rat-die d${size}${face === 1 ? " one" : ""}${face === null || face === undefined ? " blank" : ""}`;
  return el("span", Object.assign({ class: cls, title: `d${size}${face ? ` showing ${face}` : ""}` }, extra), label);
}

function ratDice(rat, roll) {
  if (roll) return roll.dice.map((d) => dieShape(d.size, d.face));
  return rat.pool.map((size) => dieShape(size, null));
}

function successLine(roll, type) {
  if (!roll || !roll.complete) return "";
  const s = roll.successes;
  return `Fight ${s.fight} · Sneak ${s.sneak} · Think ${s.think}${roll.ones ? ` · ${roll.ones}× 1` : ""}`;
}

function ratCard(view, rat, { big = false } = {}) {
  const contest = ratContest(view);
  const roll = contest && contest.rolls ? contest.rolls[rat.seat] : null;
  const challenge = view.challenge;
  const odds = challenge && !challenge.resolved && (!roll || !roll.dice.some((d) => d.face !== null))
    ? el("span", { class: "rat-odds odds", title: "exact chance to pass, from this pool" }, `${challenge.odds[rat.seat]}% to pass`) : "";
  const result = challenge && challenge.resolved
    ? (challenge.winner === rat.seat ? "wins" : challenge.passed.includes(rat.seat) ? "passed" : "failed") : "";
  const dominant = view.nest && view.nest.dominant === rat.seat;
  return el("div", { class: `rat${state.current === rat.seat ? " current" : ""}${big ? " big" : ""}${result ? ` ${result}` : ""}` },
    el("div", { class: "rat-head" },
      el("span", { class: "name" }, rat.name + (rat.name !== rat.player ? ` (${rat.player})` : "")),
      dominant ? el("span", { class: "rat-badge" }, "Dominant") : "",
      result ? el("span", { class: "rat-badge" }, result) : "",
      odds),
    el("div", { class: "rat-figures" },
      el("span", { class: "rat-hate", title: "Hate" }, el("b", {}, String(rat.hate)), " Hate"),
      el("span", {}, el("b", {}, String(rat.cards)), " cards"),
      el("span", {}, el("b", {}, String(rat.pool.length)), " dice")),
    el("div", { class: "rat-pool", "aria-label": `${rat.name}'s dice` }, ...ratDice(rat, roll)),
    roll && roll.complete ? el("div", { class: "rat-successes" }, successLine(roll)) : "",
    rat.wounds.length ? el("div", { class: "rat-wounds" }, "Wounds: ", ...rat.wounds.map((s) => dieShape(s, null))) : "",
    el("div", { class: "rat-dominance" },
      ...rat.dominance.map((c) => el("span", { class: `card ${c.card.slice(-1)}` }, c.short)),
      el("span", { class: "rat-rank" }, rat.dominance.length ? rat.hand_rank : "no Dominance cards")));
}

function challengeHeader(view) {
  const c = view.challenge;
  if (view.nest) {
    const n = view.nest;
    const names = view.rats.map((r) => r.name);
    const parts = [`Nest: ${names[n.dominant]} is the Dominant Rat`];
    if (n.fight) parts.push(`${names[n.fight.attacker]} scraps with ${names[n.fight.defender]}${n.fight.rounds > 1 ? ` (roll ${n.fight.rounds})` : ""}`);
    if (n.fight && n.fight.result) parts.push(n.fight.result);
    if (n.pending) parts.push(`${names[n.pending[0]]} challenges ${names[n.pending[1]]}`);
    if (n.stage === "steal" && n.victims.length) parts.push(`least Hate: ${n.victims.map((s) => names[s]).join(", ")}`);
    return el("div", { class: "rat-challenge" }, parts.join(" · "));
  }
  if (!c) {
    const turn = view.turn.stage === "burrow" ? `Burrowing with the ${view.turn.card_short}` : "No challenge in play";
    return el("div", { class: "rat-challenge" }, turn);
  }
  return el("div", { class: `rat-challenge ${c.type}` },
    el("span", { class: `card big ${c.card.slice(-1)}` }, c.card_short),
    el("span", {}, `${RAT_TYPES[c.type]} ${c.difficulty}`),
    c.resolved ? "" : el("span", { class: "hint" }, c.all_in ? "Re-rolls: 2 Hate each"
      : `${c.waiting.length} ${c.waiting.length === 1 ? "rat" : "rats"} still rolling`));
}

function lootLine(view) {
  const s = view.settle;
  if (!s || (!s.loot_order.length && !s.wounds_due.length)) return [];
  const names = view.rats.map((r) => r.name);
  const parts = [];
  if (s.loot_order.length) parts.push(`Loot order: ${s.loot_order.map((x) => names[x]).join(", ")} · left: ${s.loot_left.join(", ")}`);
  if (s.wounds_due.length) parts.push(`Wounds to choose: ${s.wounds_due.map((x) => names[x]).join(", ")}`);
  return parts.map((p) => el("span", { class: "label" }, p));
}

// --- controls shared by the tablet and the phones ------------------------------------------

function createForm(rat) {
  const name = el("input", { name: "name", value: rat.name, maxlength: "20", "aria-label": `${rat.player}'s rat name` });
  const bonus = [0, 1].map((i) => el("select", { "aria-label": `bonus die ${i + 1}` },
    ...RAT_BONUS.map((s) => el("option", { value: String(s) }, `d${s}`))));
  bonus[0].value = "8"; bonus[1].value = "10";
  const form = el("form", { class: "rat-form" }, el("b", {}, rat.player), name, ...bonus,
    el("button", { type: "submit", class: "big" }, "Ready"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    ratMove(rat.seat, "create", { name: name.value.trim() || rat.player, bonus: bonus.map((b) => Number(b.value)) });
  });
  return form;
}

// Two taps: the suit, then the rank (a real deck: the player says what they played).
function cardPicker(seat, move = "play") {
  const box = el("div", { class: "rat-picker" });
  const suits = () => box.replaceChildren(el("span", { class: "label" }, "Card played: suit"),
    ...RAT_SUITS.map(([code, symbol, word]) => el("button", { type: "button", class: `big card ${code}`,
      onclick: () => ranks(code, symbol) }, `${symbol} ${word}`)));
  const ranks = (suit, symbol) => box.replaceChildren(el("span", { class: "label" }, `${symbol}: rank`),
    ...RAT_RANKS.map((rank) => el("button", { type: "button", class: `card ${suit}`,
      onclick: () => ratMove(seat, move, { card: rank + suit }) }, rank + symbol)),
    el("button", { type: "button", onclick: suits }, "← suit"));
  suits();
  return box;
}

// One tap per die: each unrolled die of the rat shows its faces 1..N as buttons. A tapped face
// shows at once as entered while it is on its way (taps queue in order), so the next tap
// lands on the next die, never on a row about to be replaced.
const ratTapped = [];  // {seat, size, face, ordinal}: faces tapped, not yet in the state

function forgetTaps(seat) {
  for (let i = ratTapped.length - 1; i >= 0; i--) if (ratTapped[i].seat === seat) ratTapped.splice(i, 1);
}

function filledOf(roll, size) {
  return roll.dice.filter((d) => d.size === size && d.face !== null).length;
}

function diceEntry(view, seat, roll) {
  for (let i = ratTapped.length - 1; i >= 0; i--) {  // what the state now holds is done
    const tap = ratTapped[i];
    if (tap.seat === seat && filledOf(roll, tap.size) > tap.ordinal) ratTapped.splice(i, 1);
  }
  const waiting = ratTapped.filter((t) => t.seat === seat);
  const rows = [];
  roll.dice.forEach((die) => {
    if (die.face !== null) return;
    const tapped = waiting.find((t) => t.size === die.size && !t.shown);
    if (tapped) {
      tapped.shown = true;
      rows.push(el("div", { class: "rat-entry entered", role: "group", "aria-label": `d${die.size}: ${tapped.face}` },
        dieShape(die.size, tapped.face)));
      return;
    }
    rows.push(el("div", { class: "rat-entry", role: "group", "aria-label": `d${die.size}` },
      dieShape(die.size, null),
      ...Array.from({ length: die.size }, (_, k) => el("button", { type: "button", class: "face",
        onclick: () => tapFace(seat, roll, die.size, k + 1) }, String(k + 1)))));
  });
  waiting.forEach((t) => { delete t.shown; });
  return rows;
}

function tapFace(seat, roll, size, face) {
  const ordinal = filledOf(roll, size) + ratTapped.filter((t) => t.seat === seat && t.size === size).length;
  const tap = { seat, size, face, ordinal };
  ratTapped.push(tap);
  render();  // shown as entered now; the companion's answer follows in order
  ratMove(seat, "roll", { sizes: [size] }, [face]).then((sent) => {
    if (sent) return;
    const at = ratTapped.indexOf(tap);
    if (at >= 0) ratTapped.splice(at, 1);
    render();
  });
}

// Re-roll for 2 Hate: tap a die (any rat's), roll it again, tap what it shows now.
function rerollPanel(view, payer, contest) {
  const box = el("div", { class: "rat-reroll" });
  const rat = view.rats[payer];
  const pickDie = () => {
    const rows = view.rats.filter((r) => contest.rolls[r.seat]).map((r) => el("div", { class: "rat-pool" },
      el("span", { class: "label" }, r.name),
      ...contest.rolls[r.seat].dice.map((d, i) => d.face === 1 || d.rerolled_by.includes(payer)
        ? dieShape(d.size, d.face)
        : el("button", { type: "button", class: "die-button", "aria-label": `re-roll ${r.name}'s d${d.size} showing ${d.face}`,
          onclick: () => pickFace(r, i, d) }, dieShape(d.size, d.face)))));
    box.replaceChildren(el("span", { class: "label" }, `${rat.name}: re-roll a die for 2 Hate (you have ${rat.hate})`), ...rows);
  };
  const pickFace = (owner, index, die) => box.replaceChildren(
    el("span", { class: "label" }, `Roll ${owner.name}'s d${die.size} again: it shows`),
    ...Array.from({ length: die.size }, (_, k) => el("button", { type: "button", class: "face",
      onclick: () => ratMove(payer, "reroll", { owner: owner.seat, die: index }, [k + 1]) }, String(k + 1))),
    el("button", { type: "button", onclick: pickDie }, "← another die"));
  pickDie();
  return box;
}

// Burrowing heals any of the wound dice, a Hate each: tap the dice to heal, then Heal.
// (The offered buttons heal all or none; a rat may well want only its d10 back.)
function burrowForm(rat) {
  const chosen = new Set();
  const heal = el("button", { type: "submit", class: "big", disabled: "" }, "Heal the dice tapped");
  const toggles = rat.wounds.map((size, index) => {
    const button = el("button", { type: "button", class: "die-button", "aria-pressed": "false",
      "aria-label": `heal a d${size}` }, dieShape(size, null));
    button.addEventListener("click", () => {
      if (chosen.has(index)) chosen.delete(index); else chosen.add(index);
      button.setAttribute("aria-pressed", String(chosen.has(index)));
      heal.disabled = chosen.size === 0;
      heal.textContent = chosen.size ? `Heal ${chosen.size} (${chosen.size} Hate)` : "Heal the dice tapped";
    });
    return button;
  });
  const form = el("form", { class: "rat-picker rat-burrow" },
    el("span", { class: "label" }, `${rat.name}: tap the wound dice to heal (1 Hate each)`), ...toggles, heal);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    ratMove(rat.seat, "burrow", { heal: [...chosen].sort().map((index) => rat.wounds[index]) });
  });
  return form;
}

// Loot may lower Hate by any amount (at least 1): the offered buttons are "all" and "1";
// this picks any amount between, for a rat that keeps some Hate to spend.
function hateLootForm(rat) {
  const amount = el("select", { "aria-label": `${rat.name}: Hate to lose` },
    ...Array.from({ length: rat.hate }, (_, k) => el("option", { value: String(k + 1) }, String(k + 1))));
  const form = el("form", { class: "rat-form rat-loot-hate" },
    el("span", { class: "label" }, `${rat.name}: lower Hate by`), amount,
    el("button", { type: "submit" }, "Take less Hate"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    ratMove(rat.seat, "loot", { item: "hate", amount: Number(amount.value) });
  });
  return form;
}

function challengeForm(view, seat) {
  const others = view.rats.filter((r) => r.seat !== seat);
  return el("div", { class: "rat-picker" }, el("span", { class: "label" }, `${view.rats[seat].name} challenges:`),
    ...others.map((r) => el("button", { type: "button", onclick: () => ratMove(seat, "challenge", { target: r.seat }) }, r.name)));
}

// Everything one rat may do now (the phone's panel; the tablet shows it for every rat).
function ratControls(view, seat, panel, { phone = false } = {}) {
  const rat = view.rats[seat];
  const parts = [];
  if (!rat.created && state.phase === "create") parts.push(keep(panel, `create-${seat}`, () => createForm(rat)));
  const myTurn = state.phase === "tunnel" && state.current === seat && view.turn.stage === "card";
  if (phone && rat.hand) {
    const over = rat.cards > view.hand_limit;
    if (rat.hand.length) {
      parts.push(el("div", { class: "rat-hand" }, el("span", { class: "label" }, over ? "Discard one:" : myTurn ? "Play a card:" : "Your hand:"),
        ...rat.hand.map((c) => el("button", { type: "button", class: `card ${c.card.slice(-1)}`, disabled: over || myTurn ? null : "",
          "aria-label": c.name, onclick: () => ratMove(seat, over ? "discard" : "play", { card: c.card }) }, c.short))));
    }
  } else if (myTurn && view.deck_mode !== "phone" && rat.cards > 0) {
    // Kept across redraws (the stream, a waking tablet): a suit tapped stays tapped.
    parts.push(keep(panel, `card-${seat}-${state.round}`,
      () => cardPicker(seat)));
  }
  const burrowing = state.phase === "tunnel" && state.current === seat && view.turn.stage === "burrow";
  if (burrowing && rat.wounds.length > 1) {
    parts.push(keep(panel, `burrow-${seat}-${state.round}-${rat.wounds.join("-")}`, () => burrowForm(rat)));
  }
  const settle = view.settle;
  const looting = state.phase === "tunnel" && view.turn.stage === "settle" && settle.loot_order[0] === seat;
  if (looting && settle.loot_left.includes("hate") && rat.hate > 2) {
    parts.push(keep(panel, `loot-hate-${seat}-${state.round}-${rat.hate}`, () => hateLootForm(rat)));
  }
  const contest = ratContest(view);
  const roll = contest && contest.rolls ? contest.rolls[seat] : null;
  if (!roll || roll.complete) forgetTaps(seat);  // all in: nothing of this roll is on its way
  const camera = state.pending_move;
  if (phone && roll && !roll.complete && camera && camera.seat === seat && camera.name === "roll") {
    parts.push(cameraRoll(seat, camera));
  }
  if (roll && !roll.complete) parts.push(el("div", { class: "rat-entry-box" },
    el("span", { class: "label" }, `${rat.name}'s dice: tap what each shows`), ...diceEntry(view, seat, roll)));
  if (contest && contest.all_in && !contest.result && !contest.resolved && !contest.done_spending.includes(seat)) {
    // Kept while the dice and this rat's Hate stay as they are: the others' "no more
    // re-rolls" redraw the panel often, and used to put a tapped die back to the die list.
    if (rat.hate >= 2) {
      const dice = contest.rolls.map((r) => (r ? r.dice.map((d) => `${d.face}.${d.rerolled_by.join("+")}`) : [])
        .join(",")).join("/");
      parts.push(keep(panel, `reroll-${seat}-${rat.hate}-${dice}`, () => rerollPanel(view, seat, contest)));
    }
    // "no more re-rolls" is one of the offered buttons (the phone's and the tablet's lists):
    // drawn here as well, every phone and the tablet showed it twice.
  }
  const nest = view.nest;
  if (nest && nest.stage === "challenges" && !nest.fight && !nest.pending && !nest.challenged.includes(seat)) {
    parts.push(challengeForm(view, seat));
  }
  return parts;
}

// The camera's reading of this rat's pool (companion/vision/poly_dice.py): one tap takes it.
function cameraRoll(seat, camera) {
  const sizes = camera.args.sizes || [];
  const dice = sizes.map((size, i) => dieShape(size, camera.given[i]));
  const said = sizes.map((size, i) => `d${size} ${camera.given[i]}`).join(", ");
  return el("div", { class: "rat-camera-roll" },
    el("span", { class: "label" }, "The camera reads:"),
    el("div", { class: "rat-pool", "aria-label": `the camera reads ${said}` }, ...dice),
    el("button", { type: "button", class: "big",
      onclick: () => ratMove(seat, "roll", camera.args, camera.given) }, "That's my roll"));
}

function legalFor(seat) {
  return (state.legal || []).filter((c) => c.seat === seat).map((choice) =>
    el("button", { type: "button", onclick: () => ratMove(choice.seat, choice.name, choice.args) }, choice.label));
}

(window.Boards = window.Boards || {}).rats = {
  render(view) {
    $("belt").replaceChildren(challengeHeader(view),
      el("div", { class: "rat-grid" }, ...view.rats.map((rat) => ratCard(view, rat))));
    $("pit").replaceChildren(el("span", { class: "label" }, `Round ${state.round || 0} of ${view.rounds}`), ...lootLine(view));
    document.querySelector(".counter .label").textContent = "Cards in the deck";
    document.querySelector(".counter.gator .label").textContent = "Discards";
    $("speed").textContent = String(view.deck);
    $("alligators").textContent = String(view.discard);
    $("speed-chips").textContent = view.deck_mode === "phone" ? "dealt to the phones" : "your own deck";
    $("gator-chips").textContent = "";
    $("hamsters").replaceChildren();
    $("tests").replaceChildren();
  },
  // The tablet: each rat's own controls, for a table where not everyone has a phone.
  controls(view, panel) {
    if (state.over) return false;
    const groups = view.rats.map((rat) => {
      const parts = ratControls(view, rat.seat, panel);
      return parts.length ? el("details", { class: "rat-seat", open: "" }, el("summary", {}, rat.name), ...parts) : null;
    }).filter(Boolean);
    panel.replaceChildren(...groups);
    return groups.length > 0;
  },
  // A player's phone: that rat, big, and only what that rat may do.
  phone(view, panel, seat) {
    const rat = view.rats[seat];
    panel.replaceChildren(challengeHeader(view), ratCard(view, rat, { big: true }),
      ...ratControls(view, seat, panel, { phone: true }), el("div", { class: "choice-group" }, ...legalFor(seat)),
      el("details", { class: "rat-others" }, el("summary", {}, "The other rats"),
        ...view.rats.filter((r) => r.seat !== seat).map((r) => ratCard(view, r))));
    return true;
  },
};
