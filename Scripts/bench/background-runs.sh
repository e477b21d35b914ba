#!/usr/bin/env bash
# background-runs.sh AGENT [RUNS] [WORKERS] [KILL_EVERY] [DELAY_MS]: RUNS background responses (a
# scripted model whose turns take DELAY_MS each, one calendarFreeDays call per run) queued on one
# `agent serve` (its in-process worker) plus WORKERS-1 `agent worker --concurrency 4` processes, on
# a throwaway PostgreSQL cluster. With KILL_EVERY seconds, one `agent worker` is killed (SIGKILL)
# that often and started again. Prints runs completed, tool calls started more than once, p50/p99
# from queued to in_progress, and runs per second. Run it from the project folder after
# `make plugins` (the calendar plugin).
# REPLICAS=N (environment, default 1): N `agent serve --no-worker` replicas behind HAProxy (round
# robin, health checks), the runs queued and polled through it; WORKERS then counts `agent worker`
# processes only.
set -euo pipefail
agent="$1"; runs="${2:-100}"; workers="${3:-1}"; kill_every="${4:-0}"; delay="${5:-0}"
bin=/usr/lib/postgresql/15/bin
dir=$(mktemp -d /tmp/trailhead-bg-bench-XXXXXX); chmod 755 "$dir"
as_pg() { if [ "$(id -u)" = 0 ]; then chown -R postgres "$dir/pg" 2>/dev/null || true; runuser -u postgres -- "$@"; else "$@"; fi; }
mkdir -p "$dir/pg"
pids=()
cleanup() { for p in "${pids[@]}" $(cat "$dir/serve-pids" 2>/dev/null); do kill "$p" 2>/dev/null || true; done; as_pg "$bin/pg_ctl" stop -D "$dir/pg/data" -m immediate >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
as_pg "$bin/initdb" -D "$dir/pg/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >/dev/null
as_pg "$bin/pg_ctl" start -D "$dir/pg/data" -w -l "$dir/pg/log" -o "-p $port -k $dir/pg -c listen_addresses=127.0.0.1 -c fsync=off" >/dev/null
url="postgresql://postgres@127.0.0.1:$port/postgres"
cat > "$dir/agents.json" <<'JSON'
{"agents": [{"name": "free-days", "instructions": "You tell the user which days their calendar leaves free.", "tools": ["calendarFreeDays"], "maxTurns": 4}]}
JSON
python3 - "$dir/script.jsonl" "$delay" <<'PY'
import json, sys
call = json.dumps({"name": "calendarFreeDays", "arguments": {"start": "2026-12-01", "end": "2026-12-07"}})
final = json.dumps({"answer": "You are free on Sunday 6 December."})
delay = float(sys.argv[2])
open(sys.argv[1], "w").write("".join(json.dumps({"text": t, "delayMs": delay}) + "\n" for t in (call, final)))
PY
common=(--agents "$dir/agents.json" --model "scripted:$dir/script.jsonl" --store "$url")
replicas="${REPLICAS:-1}"
export TRAILHEAD_WORKER_LEASE_SECONDS=3
serve_api() {  # serve_api LOG [OPTIONS…]: starts a replica, prints its API address
  local log="$1"; shift
  "$agent" serve --port 0 "${common[@]}" "$@" > "$log" 2>&1 & echo $! >> "$dir/serve-pids"  # a subshell: pids+= would be lost
  for _ in $(seq 100); do grep -qo '127.0.0.1:[0-9]*/v1' "$log" && break; sleep 0.2; done
  grep -o 'http://127.0.0.1:[0-9]*/v1' "$log" | head -1
}
if [ "$replicas" -gt 1 ]; then
  servers=""
  for r in $(seq "$replicas"); do
    address=$(serve_api "$dir/serve-$r.log" --no-worker | sed 's|http://||; s|/v1||')
    servers+="    server r$r $address check"$'\n'
  done
  lb=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  printf 'global\n    maxconn 1024\ndefaults\n    mode http\n    timeout connect 2s\n    timeout client 120s\n    timeout server 120s\n    option redispatch\n    retries 3\nfrontend api\n    bind 127.0.0.1:%s\n    default_backend replicas\nbackend replicas\n    balance roundrobin\n    option httpchk GET /health\n    default-server inter 500ms fall 2 rise 1\n%s' "$lb" "$servers" > "$dir/haproxy.cfg"
  haproxy -db -f "$dir/haproxy.cfg" > "$dir/haproxy.log" 2>&1 & pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$lb/health" >/dev/null && break; sleep 0.1; done
  api="http://127.0.0.1:$lb/v1"
  first_worker=1
else
  api=$(serve_api "$dir/serve.log")
  first_worker=2
fi
worker_pids=()
for n in $(seq "$first_worker" "$workers"); do "$agent" worker --concurrency 4 "${common[@]}" >> "$dir/worker-$n.log" 2>&1 & worker_pids+=($!); pids+=($!); done
kills=0
if [ "$kill_every" != 0 ] && [ "${#worker_pids[@]}" -gt 0 ]; then
  ( i=0; while sleep "$kill_every"; do
      n=$((i % ${#worker_pids[@]})); kill -9 "${worker_pids[$n]}" 2>/dev/null || true
      "$agent" worker --concurrency 4 "${common[@]}" >> "$dir/worker-r$i.log" 2>&1 & worker_pids[$n]=$!
      echo "$!" >> "$dir/restarted"; echo kill >> "$dir/kills"; i=$((i + 1))
    done ) & killer=$!; pids+=($killer)
fi
python3 - "$api" "$runs" <<'PY'
import json, sys, time, urllib.request
api, runs = sys.argv[1], int(sys.argv[2])
def call(method, path, body=None):
    request = urllib.request.Request(api + path, method=method, data=json.dumps(body).encode() if body else None, headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request, timeout=60))
start = time.monotonic()
ids = [call("POST", "/responses", {"model": "free-days", "input": "When am I free?", "background": True})["id"] for _ in range(runs)]
pending = set(ids)
while pending and time.monotonic() - start < 600:
    for id in list(pending):
        if call("GET", "/responses/" + id)["status"] in ("completed", "failed", "cancelled"): pending.discard(id)
    time.sleep(0.2)
print(f"submitted {runs} in {time.monotonic() - start:.1f} s wall until the last ended (polling every 0.2 s)")
PY
psql() { "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -At -c "$1"; }
echo "completed $(psql "SELECT count(*) FROM trailhead_runs WHERE status = 'completed'") of $runs, failed $(psql "SELECT count(*) FROM trailhead_runs WHERE status = 'failed'")"
echo "tool calls started more than once: $(psql "SELECT count(*) FROM (SELECT run FROM trailhead_run_steps WHERE key LIKE 'started:%' GROUP BY run HAVING count(*) > 1) t"); runs without exactly one: $(psql "SELECT count(*) FROM trailhead_runs r WHERE (SELECT count(*) FROM trailhead_run_steps s WHERE s.run = r.id AND s.key LIKE 'started:%') <> 1")"
echo "runs taken over from a killed worker: $(psql "SELECT count(*) FROM (SELECT run FROM trailhead_run_events WHERE event->>'type' = 'response.in_progress' GROUP BY run HAVING count(*) > 1) t"); calls whose outcome was lost (killed inside the tool, not run again): $(psql "SELECT count(*) FROM trailhead_run_steps WHERE outcome->>'error' LIKE '%outcome was lost%'")"
echo "queued -> in_progress ms p50/p99: $(psql "SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM started_at - created_at)) * 1000) || ' / ' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM started_at - created_at)) * 1000) FROM trailhead_runs")"
echo "runs per second (first queued to last ended): $(psql "SELECT round(count(*) / extract(epoch FROM max(updated_at) - min(created_at))::numeric, 1) FROM trailhead_runs")"
[ -n "${killer:-}" ] && kill "$killer" 2>/dev/null; [ -f "$dir/restarted" ] && while read -r p; do kill "$p" 2>/dev/null || true; done < "$dir/restarted"
if [ "$replicas" -gt 1 ]; then front="$replicas agent serve --no-worker behind HAProxy, $workers agent worker --concurrency 4"; else front="1 in agent serve + $((workers - 1)) agent worker --concurrency 4"; fi
echo "workers: $front; workers killed: $(cat "$dir/kills" 2>/dev/null | wc -l); model turn delay ${delay} ms; lease 3 s"
