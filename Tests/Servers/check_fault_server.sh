#!/usr/bin/env bash
# Smoke test for fault_server.py: start it, hit representative routes with
# curl, print PASS/FAIL per check, stop it. Exits non-zero if any check fails.
set -u

HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="$(mktemp -d)"
PORT_FILE="$WORK/port"
python3 "$HERE/fault_server.py" --port-file "$PORT_FILE" --lifetime 120 &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"' EXIT

for _ in $(seq 100); do
  [ -s "$PORT_FILE" ] && break
  sleep 0.1
done
if ! [ -s "$PORT_FILE" ]; then echo "FAIL server did not write $PORT_FILE"; exit 1; fi
PORT="$(cat "$PORT_FILE")"
BASE="http://127.0.0.1:$PORT"
FAILURES=0

check() {  # check NAME ACTUAL EXPECTED  (EXPECTED is a grep -E pattern)
  if printf '%s' "$2" | grep -Eq -- "$3"; then
    echo "PASS $1"
  else
    echo "FAIL $1: got [$2], wanted /$3/"
    FAILURES=$((FAILURES + 1))
  fi
}
hits() { curl -s "$BASE/__hits?key=$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["count"])'; }
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
rc() { curl -s -o /dev/null "$@"; echo $?; }

check "port file holds digits" "$PORT" '^[0-9]+$'
check "health" "$(curl -s "$BASE/__health")" '^ok$'
check "ok" "$(curl -s -w ' %{http_code}' "$BASE/ok?key=ok")" '^\{"ok": true\} 200$'
check "echo POST body" "$(curl -s -X POST --data-binary 'hello body' "$BASE/echo?key=echo")" '"method": "POST".*"body": "hello body"'
check "__hits records body" "$(curl -s "$BASE/__hits?key=echo")" '"count": 1.*"body": "hello body"'
check "flaky first attempt" "$(code "$BASE/flaky/1/503?key=flaky")" '^503$'
check "flaky second attempt" "$(curl -s -w ' %{http_code}' "$BASE/flaky/1/503?key=flaky")" '"attempt": 2, "ok": true\} 200$'
check "__hits count flaky" "$(hits flaky)" '^2$'
check "retry-after passthrough" "$(curl -s -D - -o /dev/null "$BASE/flaky/1/429?key=ra&retry_after=7")" 'Retry-After: 7'
check "cross-origin Location" "$(curl -s -D - -o /dev/null "$BASE/cross-origin?key=xo")" "Location: http://127.0.0.2:$PORT/echo\?key=xo"
check "cross-origin followed" "$(curl -s -L "$BASE/cross-origin?key=xo")" "\"host\": \"127.0.0.2:$PORT\""
check "redirect-loop (curl 47)" "$(rc -L --max-redirs 5 "$BASE/redirect-loop?key=loop")" '^47$'
check "redirect-loop hit count" "$(hits loop)" '^6$'
check "redirect chain" "$(curl -s -L "$BASE/redirect/3")" '"redirected": true'
check "truncated fails in curl" "$(rc "$BASE/truncated?key=tr")" '^[1-9][0-9]*$'
check "truncated still counted" "$(hits tr)" '^1$'
check "garbage-status fails" "$(rc "$BASE/garbage-status")" '^[1-9][0-9]*$'
check "close-before-response (52)" "$(rc "$BASE/close-before-response")" '^52$'
check "huge-header 50 KiB" "$(curl -s -D - -o /dev/null "$BASE/huge-header?kb=50" | grep -i '^x-huge' | wc -c)" '^5[0-9]{4}$'
check "huge-header default rejected" "$(rc "$BASE/huge-header")" '^[1-9][0-9]*$'
check "204 empty" "$(curl -s -w '%{http_code}:%{size_download}' "$BASE/204")" '^204:0$'
check "HEAD /bytes/100" "$(curl -s -I "$BASE/bytes/100?key=head" | tr -d '\r')" 'Content-Length: 100'
check "HEAD recorded" "$(curl -s "$BASE/__hits?key=head")" '"method": "HEAD"'
check "gzip" "$(curl -s --compressed "$BASE/gzip")" '"gzipped": true'
check "stall-before-read closes" "$(rc -m 5 "$BASE/stall-before-read?ms=200&key=sbr")" '^(52|56)$'
check "stall-before-read counted" "$(hits sbr)" '^1$'

CONCURRENT="$(seq 300 | xargs -P 100 -I{} curl -s -o /dev/null -w '%{http_code}\n' "$BASE/ok?key=conc" | sort | uniq -c | tr -s ' ')"
check "300 concurrent /ok" "$CONCURRENT" '^ ?300 200$'
check "__hits count concurrent" "$(hits conc)" '^300$'

kill "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null
check "exits on SIGTERM" "$(kill -0 "$SERVER_PID" 2>&1 && echo alive || echo gone)" 'gone'

if [ "$FAILURES" -ne 0 ]; then echo "$FAILURES check(s) failed"; exit 1; fi
echo "all checks passed"
