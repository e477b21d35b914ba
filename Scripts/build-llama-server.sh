#!/usr/bin/env bash
# Builds llama-server from the llama.cpp source vendored in the llama-cpp-python sdist.
# Cached by version and CPU (the build is -march=native); prints the binary's path.
source "$(dirname "$0")/common.sh"
VERSION=0.3.36
cpu=$( (grep -m1 'model name' /proc/cpuinfo || uname -m) | sha256sum | cut -c1-12)
out="$TRAILHEAD_CACHE/llama-server/$VERSION-$cpu"
if [ -x "$out/llama-server" ]; then echo "$out/llama-server"; exit 0; fi
"$(dirname "$0")/setup-python.sh"
sdist=$(fetch_sdist llama-cpp-python "$VERSION")
work=$(mktemp -d "$TRAILHEAD_CACHE/llama-build.XXXX")
trap 'rm -rf "$work"' EXIT
tar -xzf "$sdist" -C "$work"
src=$(echo "$work"/*/vendor/llama.cpp)
log "building llama-server $VERSION (about 4 minutes on 2 cores)"
PATH="$VENV/bin:$PATH" cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
  -DLLAMA_BUILD_SERVER=ON -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF >&2
PATH="$VENV/bin:$PATH" cmake --build "$work/build" --target llama-server -j "$(nproc)" >&2
mkdir -p "$out"
cp "$work/build/bin/llama-server" "$out/llama-server.tmp"
mv "$out/llama-server.tmp" "$out/llama-server"
echo "$out/llama-server"
