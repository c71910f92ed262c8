// The event board: every table's last state from the broker, redrawn every two seconds.
// Table and player names come from the network, so they are only ever set as text.
"use strict";

const EVERY_MS = 2000;

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text === null || text === undefined ? "" : String(text);
  row.appendChild(td);
  return td;
}

function drawTables(tables) {
  const body = document.querySelector("#tables tbody");
  body.replaceChildren();
  for (const t of tables) {
    const row = document.createElement("tr");
    row.dataset.table = t.table;
    if (!t.online) row.classList.add("table-gone");
    if (t.demo) row.classList.add("table-demo");
    let name = t.online ? t.table : `${t.table} (offline; ${t.age} s old)`;
    if (t.wanted) name += ` (asked for ${t.wanted}, which another table holds)`;
    if (t.demo) name += " (demo: plays itself, not counted)";
    cell(row, name);
    cell(row, t.game ?? "no game");
    cell(row, t.round);
    cell(row, t.phase);
    cell(row, t.leads);
    body.appendChild(row);
  }
}

function drawStandings(standings) {
  const body = document.querySelector("#standings tbody");
  body.replaceChildren();
  standings.forEach((s, index) => {
    const row = document.createElement("tr");
    for (const value of [index + 1, s.name, s.wins, s.beaten, s.leading, s.games]) {
      cell(row, value);
    }
    body.appendChild(row);
  });
}

async function refresh() {
  const live = document.getElementById("board-live");
  const note = document.getElementById("board-note");
  try {
    const response = await fetch("/api/board", { cache: "no-store" });
    const data = await response.json();
    drawTables(data.tables);
    drawStandings(data.standings);
    const counted = data.tables.filter((t) => !t.demo).length;
    document.getElementById("tv-note").textContent =
      `${counted === 1 ? "1 table" : `${counted} tables`} · wins, then players beaten, then games led now`;
    if (data.off) {
      note.textContent = data.off;
    } else if (data.tables.length === 0) {
      note.textContent = "No table has published yet: start `companion run` with [mqtt] on each table.";
    } else {
      note.textContent = data.tables.length === 1 ? "1 table" : `${data.tables.length} tables`;
    }
    note.classList.toggle("plain", !data.off);  // the TV shows the note only when it warns
    live.classList.toggle("on", !data.off);  // a board whose broker is away is not live
  } catch (error) {
    live.classList.remove("on");
    note.textContent = "This Pi cannot be reached right now; the board retries by itself.";
  }
}

// ?view=tv: the standings alone, large, for a TV at the event (the page's own setting,
// so a TV's browser can be pointed at /board?view=tv and left there).
const TV = new URLSearchParams(location.search).get("view") === "tv";
document.body.classList.toggle("tv", TV);
if (TV) {
  document.querySelector("h1").textContent = "Standings";
  document.title = "Standings · Hamster table companion";
}
document.getElementById("full-screen").addEventListener("click", () => {
  if (document.fullscreenElement) document.exitFullscreen();
  else document.documentElement.requestFullscreen().catch(() => {});
});

refresh();
setInterval(refresh, EVERY_MS);
