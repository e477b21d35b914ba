#!/usr/bin/env bash
# step.sh "what" COMMAND…: one quiet setup step (see `step` in common.sh). The Makefile runs every
# setup script through it, so `make run` and `make test` print one line per step and keep the
# tools' own output in $TRAILHEAD_CACHE/logs/. STEP_PROGRESS (a shell snippet; $STEP_LOG is the
# step's log) adds progress to the line printed every ~15 s.
source "$(dirname "$0")/common.sh"
step "$@"
