#!/usr/bin/env bash
# `make fuzz`: the libFuzzer target on what remains of our own parsing at the HTTP edge (request-body
# JSON, server-sent events and their JSON), built with the toolchain's -sanitize=fuzzer,address, run
# for FUZZ_SECONDS (60 by default); then the server end to end (Scripts/fuzz-server.py).
# Prints executions and crashes; exits non-zero on a crash.
# usage: Scripts/fuzz.sh [AGENT]   (AGENT, the built `agent`, for the server fuzzing; skipped without)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
agent="${1:-}"
swiftc="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
out=.build/fuzz
mkdir -p "$out/corpus" "$out/crashes"
# Seeds: a chat-completion stream and a request body.
printf 'data: {"choices":[{"delta":{"content":"Hel"}}]}\r\n\r\ndata: [DONE]\n\n' > "$out/corpus/stream"
printf '{"model":"trip-planner","messages":[{"role":"user","content":"hi \\u00e9"}],"stream":true}' > "$out/corpus/body"
echo "[fuzz] building the response-parsing target (swiftc -sanitize=fuzzer,address)" >&2
"$swiftc" -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzResponseParsing \
  $(find Sources/TrailheadSchema -name '*.swift') Sources/TrailheadSupport/HTTP/ServerSentEvents.swift Fuzz/ResponseParsing.swift \
  -o "$out/response-parsing" > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
echo "[fuzz] running for ${seconds} s" >&2
set +e
"$out/response-parsing" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$out/crashes/" "$out/corpus" > "$out/response-parsing.log" 2>&1
status=$?
set -e
executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/response-parsing.log" | grep -o '[0-9]*$' || echo "?")
crashes=$(find "$out/crashes" -type f | wc -l)
echo "response parsing (libFuzzer): ${executions} executions in ${seconds} s, ${crashes} crashes (exit ${status}; log ${out}/response-parsing.log)"
[ "$status" -eq 0 ] && [ "$crashes" -eq 0 ] || exit 1
[ -n "$agent" ] || exit 0
echo "[fuzz] the server end to end for ${seconds} s" >&2
python3 Scripts/fuzz-server.py "$agent" "$seconds" Plugins Manifests
