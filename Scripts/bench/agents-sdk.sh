#!/usr/bin/env bash
# The OpenAI Agents SDK on the embedded model: 5 runs against llama-server's native tools and 5
# against `agent serve` (Scripts/bench/agents-sdk.py). Usage: Scripts/bench/agents-sdk.sh AGENT [RUNS]
set -euo pipefail
agent=${1:?usage: agents-sdk.sh AGENT [RUNS]}
runs=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
py="${TRAILHEAD_CACHE:-$HOME/.cache/trailhead}/venv/bin/python"
llama=$("$agent" model start | sed -n 's/.* at \(http[^ ]*\).*/\1/p' | head -1)
[ -n "$llama" ] || { echo "agents-sdk.sh: the local model did not start" >&2; exit 1; }
log=$(mktemp)
"$agent" serve --port 0 --store "$(mktemp -d)" 2>"$log" &
serve=$!
trap 'kill $serve 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q "on http" "$log" && break; sleep 0.1; done
url=$(sed -n 's/.* on \(http[^ ]*\) .*/\1/p' "$log" | head -1)
[ -n "$url" ] || { echo "agents-sdk.sh: agent serve did not start: $(cat "$log")" >&2; exit 1; }
echo "llama-server $llama; agent serve $url; $("$agent" model status 2>&1 | head -1)"
"$py" "$here/agents-sdk.py" "$llama" "$url" --runs "$runs"
