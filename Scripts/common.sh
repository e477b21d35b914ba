# Shared settings for the setup scripts. Everything downloaded or built lives in the cache,
# outside the checkout, so a fresh clone reuses it and `git clean` never loses it.
set -euo pipefail
TRAILHEAD_CACHE="${TRAILHEAD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/trailhead}"
VENV="$TRAILHEAD_CACHE/venv"
PY="$VENV/bin/python"
mkdir -p "$TRAILHEAD_CACHE"

log() { printf '\033[2m[setup]\033[0m %s\n' "$*" >&2; }

# pip download of one exact sdist into the cache; prints the archive's path.
fetch_sdist() { # name version
  local dir="$TRAILHEAD_CACHE/sdists"
  mkdir -p "$dir"
  local found
  found=$(ls "$dir"/"$1"-"$2".tar.gz "$dir"/"${1//-/_}"-"$2".tar.gz 2>/dev/null | head -1 || true)
  if [ -z "$found" ]; then
    log "downloading $1==$2 (sdist)"
    "$PY" -m pip download --quiet --no-deps --no-binary :all: --dest "$dir" "$1==$2" >&2
    found=$(ls "$dir"/"$1"-"$2".tar.gz "$dir"/"${1//-/_}"-"$2".tar.gz 2>/dev/null | head -1)
  fi
  echo "$found"
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
