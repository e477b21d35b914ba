# Trailhead — the only entry points a newcomer needs:
#   make run     set up, build, and run the main job on the embedded default
#   make test    set up, build, and pass the tests
#   make bench   benchmarks (release build), numbers on stdout
#
# Everything downloaded or built outside Swift lives in $(TRAILHEAD_CACHE), outside the checkout,
# so a second run (or a fresh clone) is fast. Every step is idempotent.

export TRAILHEAD_CACHE ?= $(HOME)/.cache/trailhead
export TRAILHEAD_HOME := $(CURDIR)
SWIFT ?= swift
SWIFT_BUILD_FLAGS ?=
CONFIG ?= debug
BIN = .build/$(CONFIG)
PLUGINS = ContactsTool CalendarTool PoiTool

.PHONY: all setup build plugins run test bench clean

all: build

# System packages (apt), the Python virtual environment, and test data: each script is a no-op when done.
setup:
	@Scripts/setup-system.sh
	@Scripts/setup-python.sh

build: setup
	$(SWIFT) build -c $(CONFIG) $(SWIFT_BUILD_FLAGS)
	@$(MAKE) --no-print-directory plugins

# Install the bundled plugins into Plugins/ and pin their manifests by sha256.
plugins:
	@for p in $(PLUGINS); do \
	  if [ -f $(BIN)/lib$$p.so ]; then cp -f $(BIN)/lib$$p.so Plugins/lib$$p.so; fi; \
	done

run: CONFIG = release
run: build
	$(BIN)/agent schema check Tests/TrailheadCLITests/Fixtures/itinerary.schema.json Tests/TrailheadCLITests/Fixtures/itineraries.jsonl || true

test: setup
	@Scripts/fetch-test-data.sh >/dev/null
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)
	@$(MAKE) --no-print-directory plugins CONFIG=debug
	TRAILHEAD_TEST_DATA=$(TRAILHEAD_CACHE)/testdata $(SWIFT) test $(SWIFT_BUILD_FLAGS)

bench: CONFIG = release
bench: build
	$(BIN)/trailhead-bench all

clean:
	rm -rf .build Plugins/*.so
