#!/usr/bin/env bash
# Runs the test suite (already built by `make build-tests`) quietly: the whole output goes to a log
# in the cache; one line says how many tests passed, and on failure the failing tests, the log's
# last 30 lines and its path are printed.
source "$(dirname "$0")/common.sh"
export TRAILHEAD_TEST_DATA="${TRAILHEAD_TEST_DATA:-$TRAILHEAD_CACHE/testdata}"
STEP_PROGRESS='echo "$(grep -c "^Test Case .* passed" "$STEP_LOG") tests passed so far"' \
  step "tests" swift test --skip-build && status=0 || status=$?
xctest=$(grep -aE "^\s*Executed [0-9]+ tests?, with [0-9]+ failures?" "$STEP_LOG" | tail -n 1 | sed 's/^ *//')
testing=$(grep -aE "Test run with [0-9]+ tests?" "$STEP_LOG" | tail -n 1 | sed 's/^[^A-Za-z]*//')
if [ "$status" -ne 0 ]; then
  log "failing tests:"
  grep -aE "(error: |failed \(|recorded an issue)" "$STEP_LOG" | head -n 40 >&2 || true
  exit "$status"
fi
log "XCTest: ${xctest:-no summary}; Swift Testing: ${testing:-no summary}"
