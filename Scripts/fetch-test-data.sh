#!/usr/bin/env bash
# Real test inputs from sdists on PyPI, unpacked into the cache:
#   JSON-Schema-Test-Suite (inside jsonschema), .ics files (icalendar, recurring-ical-events),
#   vCards (vobject). Prints the folder.
source "$(dirname "$0")/common.sh"
"$(dirname "$0")/setup-python.sh"
out="$TRAILHEAD_CACHE/testdata"
mkdir -p "$out"
unpack() { # name version
  local dest="$out/$1"
  [ -f "$dest/.complete-$2" ] && return 0
  local sdist; sdist=$(fetch_sdist "$1" "$2")
  rm -rf "$dest"; mkdir -p "$dest"
  tar -xzf "$sdist" -C "$dest" --strip-components=1
  touch "$dest/.complete-$2"
}
unpack jsonschema 4.26.0
unpack icalendar 7.3.0
unpack recurring-ical-events 3.8.2
unpack vobject 0.9.9
echo "$out"
