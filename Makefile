# here-weather: build, run and test. See README.md.
SWIFT ?= swift
ARGS ?=

.PHONY: run build test deps clean

## Build in release mode and run here-weather with ARGS (installs missing system packages).
run: build
	./.build/release/here-weather $(ARGS)

build:
	scripts/install-deps run
	$(SWIFT) build -c release --product here-weather

## Run the whole test suite (installs what the tests need: gpsd, gpsd-clients, ...).
test:
	scripts/install-deps test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest

clean:
	rm -rf .build
