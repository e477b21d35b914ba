# Shared settings for the setup scripts. Everything downloaded or built lives in the cache,
# outside the checkout, so a fresh clone reuses it and `git clean` never loses it.
set -euo pipefail
TRAILHEAD_CACHE="${TRAILHEAD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/trailhead}"
VENV="$TRAILHEAD_CACHE/venv"
PY="$VENV/bin/python"
mkdir -p "$TRAILHEAD_CACHE"

log() { printf '\033[2m[setup]\033[0m %s\n' "$*" >&2; }

# One exact sdist from PyPI in the cache (verified by sha256); prints the archive's path.
fetch_sdist() { # name version
  python3 "$(dirname "${BASH_SOURCE[0]}")/pypi-sdist.py" "$1" "$2" "$TRAILHEAD_CACHE/sdists"
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
