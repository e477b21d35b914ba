# Trailhead — the only entry points a newcomer needs:
#   make run     set up, build, and plan a trip on the embedded default model
#   make test    set up, build, and pass the tests
#   make bench   benchmarks (release build); numbers on stdout
#
# Everything downloaded or built outside Swift lives in $(TRAILHEAD_CACHE), outside the checkout,
# so a second run (or a fresh clone) is fast. Every step is idempotent.

export TRAILHEAD_CACHE ?= $(HOME)/.cache/trailhead
export TRAILHEAD_HOME := $(CURDIR)
SWIFT ?= swift
CONFIG ?= debug
BIN = .build/$(CONFIG)
# The bundled plugins: built as lib<Name>.so, installed into Plugins/, manifests pinned into Manifests/.
PLUGINS = PoiTool CalendarTool ContactsTool

.PHONY: all setup build plugins geodata model test-model run test bench clean

all: build

# Debian packages and the Python virtual environment: no-ops when already done.
setup:
	@Scripts/setup-system.sh
	@Scripts/setup-python.sh

build: setup
	$(SWIFT) build -c $(CONFIG)
	@$(MAKE) --no-print-directory plugins CONFIG=$(CONFIG)

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
	@CONFIG=$(CONFIG) Scripts/build-geo-index.sh >/dev/null

# llama-server built from source, and the default model (Qwen2.5-Coder-1.5B, sha256-verified).
model:
	@Scripts/build-llama-server.sh >/dev/null
	@Scripts/fetch-models.sh default >/dev/null

# The small model the tests run on (SmolLM2-135M).
test-model:
	@Scripts/build-llama-server.sh >/dev/null
	@Scripts/fetch-models.sh test >/dev/null

run: CONFIG = release
run: build geodata model
	$(BIN)/agent plan "Joshua Tree National Park" --days 3 --tools poi,calendar,contacts

test: setup test-model
	@Scripts/fetch-test-data.sh >/dev/null
	$(SWIFT) build --build-tests
	@$(MAKE) --no-print-directory plugins geodata CONFIG=debug
	TRAILHEAD_TEST_DATA=$(TRAILHEAD_CACHE)/testdata $(SWIFT) test --skip-build

bench: CONFIG = release
bench: build geodata model
	$(BIN)/trailhead-bench all

clean:
	rm -rf .build Plugins/*.so
