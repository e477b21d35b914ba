#!/usr/bin/env python3
"""Checks a run of the seed's trip planner (Examples/TripPlanner): the days asked for, and every
activity a place that the tool returned in this run.

    check-example-trip.py DAYS STDOUT_FILE TRANSCRIPT_FILE
"""
import json
import re
import sys

days_asked, stdout_path, transcript_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
printed = open(stdout_path, encoding="utf-8").read().splitlines()
days = [line for line in printed if re.match(r"Day \d+: ", line)]
activities = [line.split(": ", 1)[1] for line in printed if re.match(r"  \w+: ", line)]

returned = set()
for line in open(transcript_path, encoding="utf-8"):
    entry = json.loads(line)
    if entry.get("kind") == "toolOutput":
        result = entry.get("result")
        if isinstance(result, dict):
            # The typed result: {"kind": …, "places": [names]}.
            returned.update(name for name in result.get("places", []) if isinstance(name, str))
        elif isinstance(result, str) and ": " in result:
            # The seed's sentence: "There are these KIND places in LANDMARK: A, B, C".
            returned.update(name.strip() for name in result.split(": ", 1)[1].split(", ") if name.strip())

invented = [title for title in activities if title not in returned]
ok = len(days) == days_asked and activities and not invented
print(f"days {len(days)}/{days_asked}, activities {len(activities)}, from the tool {len(activities) - len(invented)}"
      + (f", not from the tool: {invented}" if invented else "") + f" -> {'ok' if ok else 'FAILED'}")
sys.exit(0 if ok else 1)
