#!/usr/bin/env bash
# The plan benchmark of `make bench`: the trips of trips.jsonl planned by Trailhead (`agent eval`,
# the managed local model) and by a peer (the OpenAI Agents SDK on the same model and llama-server
# binary, Trailhead's plugins as its tools over MCP), alternating round by round so the machine's
# drift hits both alike, then both judged by the same checks and printed side by side.
#   plans.sh AGENT [ROUNDS [PEER_ROUNDS]]     (default 5 rounds; the peer in the first PEER_ROUNDS
#   of them, all by default: it takes about three times as long)
source "$(dirname "$0")/../common.sh"
AGENT="$1"
ROUNDS="${2:-5}"
PEER_ROUNDS="${3:-$ROUNDS}"
TRIPS="$SCRIPTS/bench/trips.jsonl"
out="$TRAILHEAD_CACHE/bench/plans-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out/transcripts"
server=$("$SCRIPTS/build-llama-server.sh" 2>/dev/null | tail -n 1)
model="$TRAILHEAD_CACHE/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
"$SCRIPTS/setup-python.sh" >&2
echo "results in $out" >&2
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round of $ROUNDS: Trailhead" >&2
  "$AGENT" eval "$TRIPS" --json --transcripts "$out/transcripts/round-$round" > "$out/trailhead-$round.json" || true
  [ "$round" -le "$PEER_ROUNDS" ] || continue
  echo "round $round of $ROUNDS: the OpenAI Agents SDK" >&2
  "$PY" "$SCRIPTS/bench/agents_sdk_peer.py" "$TRIPS" --agent "$AGENT" --server "$server" --model "$model" >> "$out/peer.jsonl" || true
done
"$AGENT" eval "$TRIPS" --recorded "$out/peer.jsonl" --label "openai-agents 0.24" --json > "$out/peer.json" || true
"$PY" "$SCRIPTS/bench/plans_report.py" "$out"/trailhead-*.json "$out/peer.json"
