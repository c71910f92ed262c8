// Hamsterdam: each player's dam, the flood tallies, the roll and the standings.
// Registered under the spec's board name.
"use strict";

// On a phone a dam's row of cards slides inside the dam: bring the card the roll floods
// into view, so the water is never on a card out of sight.
function showFloodingCards() {
  for (const row of document.querySelectorAll("#belt .dam-cards")) {
    const hit = row.querySelector(".dam-card.flooding");
    if (!hit || row.scrollWidth <= row.clientWidth) continue;
    const off = hit.getBoundingClientRect().left - row.getBoundingClientRect().left;
    if (off < 0 || off + hit.offsetWidth > row.clientWidth) row.scrollLeft += off - 8;
  }
}

function renderDams(view) {
  const table = view.table || {};
  const tracker = view.tracker || {};
  const roll = view.roll || {};
  const total = table.piles ?? 0;
  // Three or four dams must all fit a 1280×800 tablet: each on one row of cards, with its
  // reserve and hamsters in the heading line instead of a line of their own.
  const compact = (view.players || []).length >= 3;
  $("belt").replaceChildren(...(view.players || []).map((player) => {
    const floods = new Set((roll.floods || []).filter((f) => f.seat === player.seat).map((f) => f.at));
    const cards = player.dam.map((spot) => el("div", { class: "dam-card" + (floods.has(spot.at) ? " flooding" : "") + (spot.tokens ? " wet" : "") },
      el("b", {}, String(spot.value)),
      el("span", { class: "dots" }, "●".repeat(spot.orange), el("span", { class: "blue" }, "●".repeat(spot.blue))),
      el("span", { class: "stack", title: "hamsters on this card" }, spot.plain ? `×${spot.plain}` : "—"),
      // Cheekster that held back one flood carries a token on the table: show it here too.
      ...spot.specials.map((sp) => el("span", { class: "special", title: sp.help },
        sp.stops ? `${sp.name} (${sp.stops} stop used)` : sp.name)),
      player.odds ? el("span", { class: "odds card-odds", title: "chance the next roll floods this card" }, `${player.odds.cards[spot.at - 1]}%`) : "",
      spot.tokens ? el("span", { class: "token-water" }, `≈ ${spot.tokens}`) : ""));
    const tallies = player.tallies;
    const meta = el("div", { class: "meta" }, [
      `reserve ${player.resting.plain}`,
      player.resting.specials.length ? `resting specials: ${player.resting.specials.map((sp) => sp.name).join(", ")}` : "",
      player.flipped.length ? `flipped cards: ${player.flipped.join(", ")}` : "",
      `${player.hamsters} hamsters`,
      player.lost ? `${player.lost} lost` : "",
    ].filter(Boolean).join(" · "));
    return el("div", { class: "dam" + (compact ? " compact" : "") + (player.seat === state.current ? " current" : "") },
      el("div", { class: "dam-head" }, el("b", {}, player.name),
        // One big number a player reads across the table: all their water.
        el("span", { class: "dam-water", title: "water: flood pile + tokens on the dam" }, String(tallies.total)),
        el("span", {}, `water (pile ${tallies.pile} + on dam ${tallies.on_dam})` +
          (tallies.to_next_breach === null ? ""
            : tallies.to_next_breach === 0 ? " · breach now" : ` · breach in ${tallies.to_next_breach}`)),
        player.odds ? el("span", { class: "odds", title: "chance the next roll floods this dam somewhere" },
          `floods on this roll: ${player.odds.flooded}%`) : "",
        compact ? meta : ""),
      el("div", { class: "dam-cards" }, ...cards),
      compact ? "" : meta,
      player.usable && player.usable.length
        ? el("div", { class: "meta usable" }, `can use now: ${player.usable.join(", ")}`)
        : "");
  }));
  showFloodingCards();
  const rollText = roll.value
    ? `Roll: ${roll.dice ? roll.dice.join(" + ") : ""} = ${roll.value}${roll.dry ? " (nobody floods: roll again)" : ""}`
    : "Waiting for the roll";
  // "card 8" is the card printed 8 (its place on the dam only when the value repeats).
  const cardName = (player, at) => {
    const spot = ((player || {}).dam || []).find((s) => s.at === at);
    if (!spot) return `card at ${at}`;
    const repeats = player.dam.filter((s) => s.value === spot.value).length > 1;
    return `card ${spot.value}${repeats ? ` (#${at})` : ""}`;
  };
  const floods = (roll.floods || []).map((f) => {
    const player = view.players[f.seat] || {};
    return `${player.name} at ${cardName(player, f.at)}${f.waiting ? " (to resolve)" : ""}`;
  });
  $("pit").replaceChildren(el("span", { class: "label" }, rollText),
    roll.alternative ? el("span", { class: "label" }, `Physicster's new roll: ${roll.alternative.join(" + ")}`) : "",
    floods.length ? el("span", { class: "label" }, `Floods: ${floods.join(", ")}`) : "",
    el("span", { class: "label" }, `Token supply: ${table.supply}${table.stand_ins ? ` (+${table.stand_ins} stand-in markers)` : ""}`));
  $("speed").textContent = String(total);
  $("speed-chips").textContent = `water in piles: ${total} of ${table.threshold} ends the game`;
  const turn = Math.min(tracker.turn || 0, tracker.turns_per_round || 0);  // never "13/12"
  $("alligators").textContent = turn ? `${turn}/${tracker.turns_per_round}` : "–";
  $("gator-chips").textContent = "turn in this round";
  document.querySelector(".counter .label").textContent = "Flood tokens in piles";
  document.querySelector(".counter.gator .label").textContent = `Round ${tracker.round ?? ""}`;
  const players = view.players || [];
  $("hamsters").replaceChildren(...(view.standings || []).map((seat, index) => {
    const player = players[seat] || { name: String(seat), tallies: {}, hamsters: 0 };
    return el("div", { class: "ham" }, el("div", { class: "token", style: "background:#7fb2e5" }, String(index + 1)),
      el("div", {}, el("div", { class: "name" }, player.name),
        el("div", { class: "meta" }, `${player.tallies.total ?? 0} flood tokens · ${player.hamsters} hamsters`)),
      el("div", {}));
  }));
}

(window.Boards = window.Boards || {}).hamsterdam = {
  render(view) {
    renderDams(view);
    $("tests").replaceChildren();
  },
  happened(view) {
    return (view.recent || []).slice(-1);
  },
};
