// The History page: the finished games, each player's record, exports, and delete with the
// table PIN followed by an Undo that lasts as long as the companion keeps the game.
"use strict";

let undo = null;  // { id, ticket } of the latest deletion, while Undo is offered
let deleting = null;  // the game the PIN dialog is for

async function call(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await reach(path, options);
  const data = await response.json().catch(() => ({ error: "The companion did not answer." }));
  if (!response.ok) throw new Error(data.error || "Something went wrong.");
  return data;
}

// Each cell carries its column's name, which the phone layout shows beside the value.
function cell(label, ...children) { return el("td", { "data-label": label }, ...children); }

function tallies(entries, name) {
  return Object.entries(entries).map(([key, t]) => `${name(key)}: ${t.wins} of ${t.plays}`).join(", ");
}

function playRow(play) {
  // Nobody won: the game's own sentence says why better than an empty name list.
  const winners = play.winner_names.length ? play.winner_names.join(", ") : (play.result || "nobody");
  const remove = el("button", { type: "button", class: "small-button", "aria-label": `Delete game ${play.id}`,
    onclick: () => askDelete(play) }, "Delete");
  const link = el("a", { href: play.bgstats_link, class: "bgstats-link", "aria-label": `Game ${play.id} to BG Stats` }, "BG Stats");
  return el("tr", { "data-game": play.id },
    cell("#", String(play.id)),
    cell("Date", play.date),
    cell("Game and rules", `${play.title} (${play.rules})`),
    cell("Players", play.players.join(", ")),
    cell("Winner", el("span", { title: play.result }, winners)),
    cell("Length", play.length),
    cell("Key figures", play.figures_text || "–"),
    cell("Actions", el("span", { class: "row-actions" }, link, remove)));
}

function statRow(entry) {
  return el("tr", {},
    cell("Player", entry.name),
    cell("Plays", String(entry.plays)),
    cell("Wins", String(entry.wins)),
    cell("By game", tallies(entry.by_game, (title) => title)),
    cell("By seat", tallies(entry.by_seat, (seat) => `seat ${seat}`)));
}

async function load() {
  try {
    const data = await call("/api/history");
    $("plays-body").replaceChildren(...data.plays.map(playRow));
    $("stats-body").replaceChildren(...data.stats.map(statRow));
    $("plays").hidden = !data.plays.length;
    $("stats").hidden = !data.stats.length;
    $("history-status").textContent = data.plays.length
      ? `${data.plays.length} finished game${data.plays.length === 1 ? "" : "s"}.`
      : "No finished game yet: the history fills as games end.";
  } catch (error) {
    $("history-status").textContent = error.message;
  }
}

function askDelete(play) {
  deleting = play;
  $("delete-which").textContent = `${play.id} (${play.title}, ${play.date})`;
  $("delete-pin").value = "";
  $("delete-error").textContent = "";
  $("delete-dialog").showModal();
}

function offerUndo(id, ticket, seconds) {
  undo = { id, ticket };
  $("undo-text").textContent = `Game ${id} deleted.`;
  $("undo-toast").hidden = false;
  clearTimeout(offerUndo.timer);
  offerUndo.timer = setTimeout(() => { $("undo-toast").hidden = true; undo = null; }, seconds * 1000);
}

function setup() {
  $("delete-cancel").addEventListener("click", () => $("delete-dialog").close());
  $("delete-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const data = await call(`/api/history/${deleting.id}/delete`, { pin: $("delete-pin").value });
      $("delete-dialog").close();
      offerUndo(data.deleted, data.undo, data.undo_seconds);
      await load();
    } catch (error) {
      $("delete-error").textContent = error.message;
    }
  });
  $("undo-button").addEventListener("click", async () => {
    if (!undo) return;
    try {
      const data = await call(`/api/history/${undo.id}/undelete`, { undo: undo.ticket });
      $("undo-toast").hidden = true;
      undo = null;
      toast(data.message);
      await load();
    } catch (error) {
      toast(error.message);
    }
  });
  load();
}

setup();
