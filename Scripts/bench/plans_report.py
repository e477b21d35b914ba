"""Prints the plan benchmark side by side: per agent and trip, runs delivered, runs passing every
check, median wall time and, for Trailhead, its model-time floor and turns and tokens; then each
Trailhead run with its floor. Input: `agent eval --json` reports."""

import json
import statistics
import sys


def load(paths):
    runs = []
    for path in paths:
        try:
            runs += json.load(open(path))["runs"]
        except Exception as error:
            print(f"(could not read {path}: {error})")
    return runs


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


runs = load(sys.argv[1:])
print("| agent | trip | runs | delivered | every check passed | median wall | median model floor | wall ÷ floor | turns | tokens out | prompt tokens read |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
groups = {}
for run in runs:
    groups.setdefault((run["agent"], run["request"]), []).append(run)
for (agent, trip), group in groups.items():
    floors = [r["floorSeconds"] for r in group if r.get("floorSeconds")]
    ratios = [r["wallSeconds"] / r["floorSeconds"] for r in group if r.get("floorSeconds")]
    print(f"| {agent} | {trip} | {len(group)} | {sum(r['succeeded'] for r in group)} | {sum(r['passed'] for r in group)} "
          f"| {median([r['wallSeconds'] for r in group]):.1f} s | {median(floors):.1f} s | {median(ratios):.2f} "
          f"| {median([r['turns'] for r in group]):.0f} | {median([r['tokensOut'] for r in group]):.0f} | {median([r['uncachedTokensIn'] for r in group]):.0f} |")
failed = [r for r in runs if not r["passed"]]
for run in failed:
    problems = [f"{c['name']}: {c['detail']}" for c in run.get("checks", []) if not c["passed"]] or [run.get("error", "")]
    print(f"- {run['agent']}, {run['request']}, run {run['run']}: " + "; ".join(problems)[:300])
