// Table care (web/care.py): the backups (download, restore from a file, copy to a USB
// stick), one file of logs, and Update; all behind the PIN. Uses app.js's token and api().
"use strict";

// Each part says what happened right under its own buttons.
function careSay(text, bad = false, where = "care-backups-said") {
  const said = $(where);
  said.textContent = text;
  said.classList.toggle("bad", bad);
}

function careSize(bytes) {
  return bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MiB` : `${Math.max(1, Math.round(bytes / 1024))} KiB`;
}

// A download that carries the PIN's token in a header (never in an address a browser keeps).
async function careDownload(path, name) {
  const response = await reach(path, { headers: { "X-Table-Token": token } });
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    throw new Error(data.error || "The download failed; try again.");
  }
  const link = el("a", { href: URL.createObjectURL(await response.blob()), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
}

function careBackupRow(backup) {
  const fetchIt = () => careDownload(`/api/care/backups/${encodeURIComponent(backup.name)}`, backup.name)
    .then(() => careSay(`Downloaded ${backup.name}.`), (error) => careSay(error.message, true));
  return el("li", {},
    el("span", { class: "when" }, backup.made, backup.uploaded ? el("small", {}, " (uploaded)") : ""),
    el("span", { class: "size" }, careSize(backup.bytes)),
    el("button", { type: "button", "aria-label": `Download the backup of ${backup.made}`, onclick: fetchIt }, "Download"));
}

async function careRefresh() {
  if (!token) return;
  try {
    const data = await api("/api/care");
    const list = data.backups.map(careBackupRow);
    $("care-backups").replaceChildren(...(list.length ? list : [el("li", {}, "No backups yet: one is made at each game's end and once a day.")]));
    $("care-stick").textContent = data.sticks.length ? `Stick found: ${data.sticks.join(", ")}.` : "No USB stick is mounted now.";
    $("care-source").textContent = data.update_source
      ? `Releases come from ${data.update_source}. Update installs the newest, keeps the one before, and puts it back by itself if the checks fail after the restart.`
      : "No release source is set yet: on the Pi run sudo companion update --git <repository> (or --wheels <folder>) once.";
    $("care-update").disabled = !data.update_source || data.waiting;
    if (data.outcome && !$("care-update-said").textContent) careSay(data.outcome.sentence, !data.outcome.ok, "care-update-said");
  } catch (error) {
    careSay(error.message, true, "care-update-said");
  }
}

async function careUpload() {
  const file = $("care-upload").files[0];
  if (!file) return;
  if (file.size > 64 * 1048576) {  // web/care.py's TOO_LARGE, said before sending it all
    careSay("That file is over 64 MiB, far larger than any games file: pick the backup itself (games-<date>.sqlite3, as Download gives it).", true);
    $("care-upload").value = "";
    return;
  }
  if (!confirm(`Restore the games from ${file.name}? The games as they are now are kept as a backup first.`)) {
    $("care-upload").value = "";
    return;
  }
  careSay(`Checking ${file.name}…`);
  try {
    const response = await reach("/api/care/restore", {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream", "X-Table-Token": token, "X-File-Name": encodeURIComponent(file.name) },
      body: file,
    });
    const data = await response.json().catch(() => ({ error: "The companion did not answer." }));
    if (!response.ok) throw new Error(data.error || "The restore was refused.");
    careSay(data.message);
  } catch (error) {
    careSay(error.message, true);
  }
  $("care-upload").value = "";
  careRefresh();
}

function careAct(path, busy, where) {
  careSay(busy, false, where);
  return api(path, {}).then((data) => careSay(data.message, false, where), (error) => careSay(error.message, true, where)).then(careRefresh);
}

document.addEventListener("DOMContentLoaded", () => {
  $("care-box").addEventListener("toggle", () => { if ($("care-box").open) careRefresh(); });
  $("care-upload").addEventListener("change", careUpload);
  $("care-usb").addEventListener("click", () => careAct("/api/care/usb", "Copying the backups to the stick…", "care-backups-said"));
  $("care-update").addEventListener("click", () => {
    if (confirm("Update the companion now? The table restarts; the release before is kept and put back if the checks fail.")) careAct("/api/care/update", "Asking for the update…", "care-update-said");
  });
  $("care-logs").addEventListener("click", () => {
    careSay("Gathering the logs and running the checks…", false, "care-logs-said");
    careDownload(`/api/care/logs.txt?lines=${$("care-lines").value}`, "hamster-table-logs.txt")
      .then(() => careSay("Logs downloaded.", false, "care-logs-said"), (error) => careSay(error.message, true, "care-logs-said"));
  });
});
