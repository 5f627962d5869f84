# here-weather: build, run, test and install. See README.md.
SWIFT ?= swift
ARGS ?=
# SwiftPM's build folder. The install tests use another one, since `swift test` holds this
# one's lock while they run.
BUILD_PATH ?= .build

# Install locations (GNU conventions): `make install PREFIX=~/.local`, or a staged install
# for packaging with `make install DESTDIR=/tmp/stage PREFIX=/usr`.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
DATADIR = $(DESTDIR)$(PREFIX)/share
MAN1DIR = $(DATADIR)/man/man1
BASHDIR = $(DATADIR)/bash-completion/completions
ZSHDIR = $(DATADIR)/zsh/site-functions
FISHDIR = $(DATADIR)/fish/vendor_completions.d

BINARY = $(BUILD_PATH)/release/here-weather
GENERATED = $(BUILD_PATH)/install
# Where swift-argument-parser's generate-manual plugin writes the page.
PLUGIN_MANUAL = $(BUILD_PATH)/plugins/GenerateManual/outputs/here-weather/here-weather.1

.PHONY: run build test bench fuzz fuzz-smoke deps clean install uninstall completions manual

## Build in release mode and run here-weather with ARGS (installs missing system packages).
run: build
	$(BINARY) $(ARGS)

# The Swift runtime is linked in (--static-swift-stdlib): the binary starts about twice as
# fast and needs no Swift libraries where it is installed (`make bench` measures it).
build:
	scripts/install-deps run
	$(SWIFT) build -c release --product here-weather --static-swift-stdlib --scratch-path $(BUILD_PATH)

## Run the whole test suite (installs what the tests need: gpsd, gpsd-clients, ...).
## Every test that runs the command runs the release binary that `make build` makes: the
## one users get (Swift's optimiser has broken code that a debug build ran fine).
test: build
	scripts/install-deps test
	$(SWIFT) build --build-tests
	HERE_WEATHER_BINARY="$(abspath $(BINARY))" $(SWIFT) test --skip-build --disable-xctest

## Time the release binary against curl, gpsdecode and gpspipe (README: "Benchmark");
## BENCH_ARGS="--runs 51" for steadier medians.
BENCH_ARGS ?=
bench: build
	scripts/install-deps bench
	scripts/bench --binary $(BINARY) $(BENCH_ARGS)

## Build the libFuzzer targets in Fuzz/ and run each for FUZZ_SECONDS; prints each one's
## executions and whether it crashed (README: "Fuzzing").
FUZZ_SECONDS ?= 60
fuzz:
	scripts/fuzz --seconds $(FUZZ_SECONDS)

## Every fuzz target for a few seconds (CI): fails on a crash.
FUZZ_SMOKE_SECONDS ?= 8
fuzz-smoke:
	scripts/fuzz --seconds $(FUZZ_SMOKE_SECONDS)

## Shell completions, written by the binary itself (swift-argument-parser).
completions: build
	mkdir -p $(GENERATED)
	$(BINARY) --generate-completion-script bash > $(GENERATED)/here-weather.bash
	$(BINARY) --generate-completion-script zsh > $(GENERATED)/_here-weather
	$(BINARY) --generate-completion-script fish > $(GENERATED)/here-weather.fish

## The man page, from the command's own help (swift-argument-parser's generate-manual
## plugin; works offline once the package's dependencies are checked out). Blank lines
## become paragraph breaks, which mdoc wants.
manual: build
	mkdir -p $(GENERATED)
	$(SWIFT) package --scratch-path $(BUILD_PATH) plugin generate-manual
	sed 's/^$$/.Pp/' $(PLUGIN_MANUAL) > $(GENERATED)/here-weather.1

## Install the release binary, completions for bash, zsh and fish, and the man page.
install: build completions manual
	install -d $(BINDIR) $(MAN1DIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	install -m 0755 $(BINARY) $(BINDIR)/here-weather
	install -m 0644 $(GENERATED)/here-weather.1 $(MAN1DIR)/here-weather.1
	install -m 0644 $(GENERATED)/here-weather.bash $(BASHDIR)/here-weather
	install -m 0644 $(GENERATED)/_here-weather $(ZSHDIR)/_here-weather
	install -m 0644 $(GENERATED)/here-weather.fish $(FISHDIR)/here-weather.fish

## Remove what `make install` put in place (same PREFIX and DESTDIR).
uninstall:
	rm -f $(BINDIR)/here-weather $(MAN1DIR)/here-weather.1 $(BASHDIR)/here-weather \
		$(ZSHDIR)/_here-weather $(FISHDIR)/here-weather.fish

clean:
	rm -rf $(BUILD_PATH) .build-install .build-fuzz
