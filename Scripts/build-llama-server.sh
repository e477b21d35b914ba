#!/usr/bin/env bash
# Builds llama-server from the llama.cpp source vendored in the llama-cpp-python sdist and
# installs it in the cache only once a smoke test passes on this machine; prints the binary's path.
#   build-llama-server.sh [portable|native|native-noamx]
# portable (the default, what the runtime uses): ggml's CPU code built for every x86-64 (or arm64)
#   variant, as libraries beside the binary; when the server starts, ggml picks the best variant
#   this CPU reports — the way llama.cpp's own releases are built. A variant the smoke test sees
#   killed by SIGILL (a virtual machine that advertises AMX but faults on it) is set aside in
#   refused/ and the next best one is tried.
# native, native-noamx: -march=native (with or without AMX), for `make bench` to compare against.
# The smoke test is `agent model check` (AGENT=path; default .build/debug/agent): it loads every
# installed model and decodes a few tokens. A cached build is checked again when the CPU, the
# installed models or a recorded crash say it may no longer pass.
source "$(dirname "$0")/common.sh"
VERSION=0.3.36
RECIPE=r1 # bump when the recipe changes: the cache key changes, so an older build is never reused
FLAVOUR="${1:-portable}"
ROOT="$(cd "$SCRIPTS/.." && pwd)"
AGENT="${AGENT:-$ROOT/.build/debug/agent}"
cpu_tag=$( (grep -m1 '^flags' /proc/cpuinfo || uname -m) | sha256sum | cut -c1-12)
common=(-DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON
        -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_BUILD_UI=OFF)
case "$FLAVOUR" in
portable)
  key="$VERSION-portable-$RECIPE-$(uname -m)"
  flags=(-DBUILD_SHARED_LIBS=ON -DGGML_NATIVE=OFF -DGGML_BACKEND_DL=ON -DGGML_CPU_ALL_VARIANTS=ON
         -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON '-DCMAKE_INSTALL_RPATH=$ORIGIN') ;;
native)
  key="$VERSION-native-$RECIPE-$cpu_tag"
  flags=(-DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=ON) ;;
native-noamx)
  key="$VERSION-native-noamx-$RECIPE-$cpu_tag"
  flags=(-DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=ON "-DCMAKE_C_FLAGS=-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
         "-DCMAKE_CXX_FLAGS=-mno-amx-tile -mno-amx-int8 -mno-amx-bf16") ;;
*) echo "usage: build-llama-server.sh [portable|native|native-noamx]" >&2; exit 2 ;;
esac
out="$TRAILHEAD_CACHE/llama-server/$key"
stamp="$out/smoke-test.ok"
crash="$TRAILHEAD_CACHE/run/local-model.crash.json"

[ -x "$AGENT" ] || { echo "error: $AGENT not found: the smoke test needs the agent (swift build --product agent)" >&2; exit 1; }

# What a passing smoke test vouches for: this CPU and these model files.
verdict_key() {
  echo "cpu=$cpu_tag models=$(ls "$TRAILHEAD_CACHE/models/"*.gguf 2>/dev/null | xargs -r -n1 basename | sort | tr '\n' ' ')"
}

# Smoke-tests the llama-server in folder $1; a CPU variant killed by SIGILL is set aside and the
# test repeated with the next best. Returns 0 when every installed model passes.
smoke_test() { # folder
  local folder="$1" report status variant
  while true; do
    status=0
    report=$("$AGENT" model check --server "$folder/llama-server" --json) || status=$?
    printf '%s\n' "$report"
    [ "$status" -eq 0 ] && return 0
    variant=$(printf '%s\n' "$report" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if not r["passed"] and r.get("signal") == 4 and r.get("cpuBackend"):
        print(r["cpuBackend"]); break')
    if [ -n "$variant" ] && [ -f "$variant" ] && [ "$(ls "$folder"/libggml-cpu-*.so 2>/dev/null | wc -l)" -gt 1 ]; then
      mkdir -p "$folder/refused"
      mv "$variant" "$folder/refused/"
      log "CPU variant $(basename "$variant") was killed by SIGILL on this machine: set aside, trying the next best"
      continue
    fi
    printf '%s\n' "$report" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if not r["passed"]: print("error: smoke test failed on " + r["model"] + ": " + (r.get("failure") or "?"), file=sys.stderr)'
    return 1
  done
}

# A build of an older recipe (the `-march=native` one was keyed by a hash of the CPU name) is
# removed: it may be the very binary that dies here.
find "$TRAILHEAD_CACHE/llama-server" -mindepth 1 -maxdepth 1 -type d -regextype egrep \
  -regex '.*/[0-9.]+-[0-9a-f]{12}' -exec rm -rf {} + 2>/dev/null || true

if [ -x "$out/llama-server" ]; then
  if [ "$(cat "$stamp" 2>/dev/null)" = "$(verdict_key)" ] && [ ! -f "$crash" ]; then echo "$out/llama-server"; exit 0; fi
  log "checking the installed llama-server on this machine again"
  if smoke_test "$out"; then verdict_key > "$stamp"; echo "$out/llama-server"; exit 0; fi
  log "the installed llama-server fails here: rebuilding it"
  rm -rf "$out"
fi

# The build folder lives in the cache until the build is installed, so an interrupted build
# resumes where it stopped (ninja redoes only what is missing).
work="$TRAILHEAD_CACHE/llama-build/$key"
if [ ! -d "$work/src" ]; then
  "$SCRIPTS/setup-python.sh"
  sdist=$(fetch_sdist llama-cpp-python "$VERSION")
  rm -rf "$work"
  mkdir -p "$work/unpacked"
  tar -xzf "$sdist" -C "$work/unpacked"
  mv "$work"/unpacked/*/vendor/llama.cpp "$work/src"
  rm -rf "$work/unpacked"
fi
if [ ! -f "$work/build/build.ninja" ]; then
  log "configuring llama.cpp ($FLAVOUR)"
  PATH="$VENV/bin:$PATH" cmake -S "$work/src" -B "$work/build" -G Ninja "${common[@]}" "${flags[@]}"
fi
targets=(llama-server)
if [ "$FLAVOUR" = portable ]; then
  # The CPU variants are loadable modules, not dependencies of llama-server: name them.
  mapfile -t variants < <(PATH="$VENV/bin:$PATH" ninja -C "$work/build" -t targets all | grep -oE '^ggml-cpu-[a-z0-9_.]+:' | grep -v -- '-feats:' | tr -d ':' | sort -u)
  targets+=("${variants[@]}")
fi
log "building ${targets[*]}"
PATH="$VENV/bin:$PATH" cmake --build "$work/build" --target "${targets[@]}" -j "$(nproc)"

staging="$out.staging"
failed="$out.smoke-failed"
rm -rf "$staging" "$failed"
mkdir -p "$staging"
cp "$work/build/bin/llama-server" "$staging/"
if [ "$FLAVOUR" = portable ]; then cp -P "$work/build/bin/"*.so* "$staging/"; fi
log "smoke test of the new build"
if ! report=$(smoke_test "$staging" 2>&1); then
  printf '%s\n' "$report" >&2
  # Remembered for `make bench`, which reports a build that does not run here as such.
  printf '%s\n' "$report" | grep -m1 '^error: ' > "$failed" || echo "error: smoke test failed" > "$failed"
  rm -rf "$staging"
  echo "error: the new llama-server ($FLAVOUR) does not pass its smoke test on this machine; it was not installed" >&2
  exit 1
fi
printf '%s\n' "$report" >&2
verdict_key > "$staging/smoke-test.ok"
rm -rf "$out"
mv "$staging" "$out"
rm -rf "$work"
[ "$FLAVOUR" = portable ] && rm -f "$crash"
echo "$out/llama-server"
