#!/usr/bin/env bash
# serve-edge.sh AGENT [LABEL]: `agent serve` (a scripted model, no tools) under wrk — GET /v1/models
# and a streamed chat completion — first alone, then with 1,000 idle connections held open; prints
# requests per second, the server's resident memory and its thread count beside each.
set -euo pipefail
agent="$1"; label="${2:-$1}"
dir=$(mktemp -d); trap 'kill $server $idle 2>/dev/null || true; rm -rf "$dir"' EXIT
cat > "$dir/agents.json" <<'JSON'
{"agents": [{"name": "echo", "instructions": "Answer.", "tools": [], "maxTurns": 2}]}
JSON
python3 - "$dir/script.jsonl" <<'PY'
import json, sys
step = json.dumps({"answer": "Free on Sunday."})
with open(sys.argv[1], "w") as f:
    for _ in range(200000): f.write(json.dumps(step) + "\n")
PY
"$agent" serve --port 0 --agents "$dir/agents.json" --model "scripted:$dir/script.jsonl" --store "$dir/sessions" > "$dir/log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -qo '127.0.0.1:[0-9]*' "$dir/log" && break; sleep 0.2; done
port=$(grep -o '127.0.0.1:[0-9]*' "$dir/log" | head -1 | cut -d: -f2)
cat > "$dir/stream.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"model":"echo","stream":true,"messages":[{"role":"user","content":"When am I free?"}]}'
wrk.headers["Content-Type"] = "application/json"
LUA
memory() { echo "$(awk '/VmRSS/ {print int($2/1024)}' /proc/$server/status) MiB, $(ls /proc/$server/task | wc -l) threads"; }
# "N req/s (M not 2xx)" from wrk's report.
rate() { awk '/Requests\/sec/ {r=$2} /Non-2xx/ {n=$5} END {printf "%s req/s (%d not 2xx)", r, n}'; }
measure() { # what
  local models stream
  models=$(wrk -t2 -c50 -d10s "http://127.0.0.1:$port/v1/models" | rate)
  stream=$(wrk -t2 -c20 -d10s -s "$dir/stream.lua" "http://127.0.0.1:$port/v1/chat/completions" | rate)
  echo "$label | $1 | GET /v1/models $models | streamed chat $stream | server $(memory)"
}
measure "no idle connections"
python3 - "$port" > /dev/null <<'PY' &
import socket, sys, time
held = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for _ in range(1000)]
time.sleep(120)
PY
idle=$!
sleep 3
measure "1,000 idle connections"
