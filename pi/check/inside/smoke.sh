#!/bin/bash
# Runs inside an arm64 root, in a network namespace of its own (loopback only): starts the
# installed service's own command (companion.service's ExecStart as its User=, with its
# Environment= and WorkingDirectory=, plus --simulate: a chroot has no camera or GPIO),
# asks for the page and the API as a tablet would, then stops it with SIGTERM as systemd does.
set -uo pipefail
unit=/etc/systemd/system/companion.service
value() { sed -n "s/^$1=//p" "$unit"; }
user=$(value User)
workdir=$(value WorkingDirectory)
start=$(value ExecStart)
mapfile -t envs < <(value Environment)
http=http://127.0.0.1:8080
https=https://localhost:8443
fail() { echo "FAIL: $*"; echo "--- the companion's output:"; tail -n 40 /tmp/run.log; exit 1; }

# systemd makes StateDirectory= for the service; a chroot has no systemd to do it.
install -d -o "$user" -g "$user" "$workdir"
cd "$workdir" || fail "no working directory $workdir"
echo "starting: $start --simulate (as $user)"
# shellcheck disable=SC2086  # ExecStart is split into words, as systemd does
sudo -u "$user" env "${envs[@]}" $start --simulate >/tmp/run.log 2>&1 &
pid=$!
began=$SECONDS
until curl -sf -o /tmp/ca.crt "$http/ca.crt"; do
    kill -0 "$pid" 2>/dev/null || fail "the companion stopped before it served the page"
    [ $((SECONDS - began)) -lt 600 ] || fail "no answer on $http within 600 s"
    sleep 1
done
echo "ok: serving after $((SECONDS - began)) s; /ca.crt over plain HTTP"
redirect=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "$http/")
[ "${redirect%% *}" = 308 ] || fail "plain HTTP / answered '$redirect', not a 308 to HTTPS"
echo "ok: plain HTTP / redirects: $redirect"
curl -sf --cacert /tmp/ca.crt -o /tmp/page.html "$https/" || fail "HTTPS / failed (certificate checked against /ca.crt)"
grep -q '<title>.*Hamster table companion</title>' /tmp/page.html || fail "the page has no companion title"
echo "ok: HTTPS / ($(wc -c </tmp/page.html) bytes, $(grep -o '<title>[^<]*' /tmp/page.html | cut -c8-)), certificate trusted through /ca.crt"
curl -sf --cacert /tmp/ca.crt -o /tmp/state.json "$https/api/state" || fail "HTTPS /api/state failed"
python3 - <<'PY' || fail "/api/state is not the table's state"
import json
state = json.load(open("/tmp/state.json"))
assert isinstance(state, dict) and state, state
print("ok: /api/state is JSON with", ", ".join(sorted(state)[:8]), "...")
PY
kill -TERM "$pid"
began=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
    [ $((SECONDS - began)) -lt 120 ] || fail "still running 120 s after SIGTERM"
    sleep 1
done
wait "$pid"
code=$?
[ "$code" = 0 ] || fail "exit code $code after SIGTERM"
echo "ok: stopped by SIGTERM in $((SECONDS - began)) s, exit code 0"
