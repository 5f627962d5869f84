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
MAN5DIR = $(DATADIR)/man/man5
BASHDIR = $(DATADIR)/bash-completion/completions
ZSHDIR = $(DATADIR)/zsh/site-functions
FISHDIR = $(DATADIR)/fish/vendor_completions.d
DOCDIR = $(DATADIR)/doc/here-weather

BINARY = $(BUILD_PATH)/release/here-weather
# The user guides the man page points to, and those they link to (the config reference, the
# translators' guide), installed beside the JSON schema.
GUIDES = docs/location.md docs/output.md docs/json.md docs/cache.md docs/weather.md docs/configuration.md \
	docs/translating.md
# Recordings for README.md's "Try it offline", installed as examples beside the guides.
EXAMPLES = Fixtures/nmea/drive.nmea Fixtures/weather/open-meteo/tampa-metric.json \
	Fixtures/weather/open-meteo/tampa-rain-in-30-min.json
GENERATED = $(BUILD_PATH)/install
# `make deb` stages the package here and writes the .deb into DEB_DIR.
DEB_STAGE = $(BUILD_PATH)/deb-root
DEB_DIR ?= $(BUILD_PATH)

.PHONY: run build test test-root test-distros bench fuzz fuzz-smoke deps clean install uninstall completions manual deb

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
## scripts/test-watchdog ends a run still going after TEST_TIME_LIMIT seconds, naming the tests
## that had not finished and every test thread's stack (docs/development.md: "Shared test process").
TEST_TIME_LIMIT ?= 1200
test: build
	scripts/install-deps test
	$(SWIFT) build --build-tests
	HERE_WEATHER_BINARY="$(abspath $(BINARY))" scripts/test-watchdog --limit $(TEST_TIME_LIMIT) -- \
		$(SWIFT) test --skip-build --disable-xctest

## The tests whose path differs as root and those that need root (docs/development.md: "Who
## runs the tests"), on the build `make test` made. CI runs `make test` as an ordinary user in a
## 0700 home, then this as root. TestUserTests checks that the list has every such suite.
## Under sudo, what root wrote in the build folders is given back to the user who ran sudo.
ROOT_TESTS = InstallTests/debianPackage|ResourceLimitTests|FileFaultTests|FileSafetyTests|GeoClueTests|TestUserTests|GPSDUnreachableTests|WaybarFollowTests
test-root:
	HERE_WEATHER_BINARY="$(abspath $(BINARY))" scripts/test-watchdog --limit $(TEST_TIME_LIMIT) -- \
		$(SWIFT) test --skip-build --disable-xctest --filter '$(ROOT_TESTS)'; status=$$?; \
	if [ -n "$${SUDO_UID:-}" ]; then chown -R "$$SUDO_UID:$$SUDO_GID" $(BUILD_PATH) .build-install; fi; exit $$status

## The Debian package in a fresh root of each of DISTROS (default Debian 13, trixie; debootstrap
## from Debian's archive, which must be reachable: the target fails saying so otherwise): apt
## installs it with its Recommends, the root's own gpsd is fed a receiver log, and the fix and
## doctor's libgps line are checked as installed, with libgps-dev, and with no libgps at all
## (scripts/test-distros; needs root). A root prepared less than a day ago is reused; CI prepares
## it in the background first (.ci/run). It builds in BUILD_PATH as `make deb` does, so it cannot
## run beside `make test` in the same folder unless given BUILD_PATH=.build-distros/build.
DISTROS ?= trixie
DISTROS_FOLDER ?= .build-distros
DISTROS_DEB_DIR = .build-distros/deb
test-distros:
	scripts/install-deps distros
	rm -rf $(DISTROS_DEB_DIR)
	$(MAKE) --no-print-directory deb DEB_DIR="$(abspath $(DISTROS_DEB_DIR))"
	for release in $(DISTROS); do \
		scripts/test-distros run --release $$release --folder "$(DISTROS_FOLDER)" --deb $(DISTROS_DEB_DIR)/here-weather_*.deb || exit 1; \
	done

## Time the release binary against curl, gpsdecode and gpspipe (docs/benchmark.md);
## BENCH_ARGS="--runs 51" for steadier medians.
BENCH_ARGS ?=
bench: build
	scripts/install-deps bench
	scripts/bench --binary $(BINARY) $(BENCH_ARGS)
	scripts/bench-follow --binary $(BINARY)
	scripts/bench-rtt --binary $(BINARY)

## Build the libFuzzer targets in Fuzz/ and run each for FUZZ_SECONDS; prints each one's
## executions and whether it crashed (docs/development.md: "Fuzzing").
FUZZ_SECONDS ?= 60
fuzz:
	scripts/fuzz --seconds $(FUZZ_SECONDS)

## Every fuzz target for a few seconds (CI): fails on a crash.
FUZZ_SMOKE_SECONDS ?= 8
fuzz-smoke:
	scripts/fuzz --seconds $(FUZZ_SMOKE_SECONDS)

## Shell completions, written by the binary itself (swift-argument-parser). bash sources its
## completions, so the script's #! line goes (lintian: bash-completion-with-hashbang).
completions: build
	mkdir -p $(GENERATED)
	$(BINARY) --generate-completion-script bash | sed '1{/^#!/d}' > $(GENERATED)/here-weather.bash
	$(BINARY) --generate-completion-script zsh > $(GENERATED)/_here-weather
	$(BINARY) --generate-completion-script fish > $(GENERATED)/here-weather.fish

## The man pages: here-weather(1) from the binary's own help (commands, options, and the exit
## statuses of ExitStatus.swift) and docs/man/here-weather.1.in (files, environment, examples),
## and here-weather.toml(5) from docs/configuration.md (lowdown): scripts/make-manual.
manual: build
	scripts/install-deps manual
	scripts/make-manual --docdir $(PREFIX)/share/doc/here-weather $(BINARY) $(GENERATED)

## Install the release binary (stripped; `make build`'s copy keeps its symbols), completions
## for bash, zsh and fish, the man pages, the JSON schema of `--json` and the user guides.
install: build completions manual
	install -d $(BINDIR) $(MAN1DIR) $(MAN5DIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR) $(DOCDIR)
	install -m 0755 -s $(BINARY) $(BINDIR)/here-weather
	install -m 0644 $(GENERATED)/here-weather.1 $(MAN1DIR)/here-weather.1
	install -m 0644 $(GENERATED)/here-weather.toml.5 $(MAN5DIR)/here-weather.toml.5
	install -m 0644 $(GENERATED)/here-weather.bash $(BASHDIR)/here-weather
	install -m 0644 $(GENERATED)/_here-weather $(ZSHDIR)/_here-weather
	install -m 0644 $(GENERATED)/here-weather.fish $(FISHDIR)/here-weather.fish
	install -m 0644 docs/here-weather.schema.json $(DOCDIR)/here-weather.schema.json
	install -m 0644 $(GUIDES) $(DOCDIR)/
	install -d $(DOCDIR)/examples
	install -m 0644 $(EXAMPLES) $(DOCDIR)/examples/

## Remove what `make install` put in place (same PREFIX and DESTDIR).
uninstall:
	rm -f $(BINDIR)/here-weather $(MAN1DIR)/here-weather.1 $(MAN5DIR)/here-weather.toml.5 $(BASHDIR)/here-weather \
		$(ZSHDIR)/_here-weather $(FISHDIR)/here-weather.fish $(DOCDIR)/here-weather.schema.json \
		$(addprefix $(DOCDIR)/,$(notdir $(GUIDES))) $(addprefix $(DOCDIR)/examples/,$(notdir $(EXAMPLES)))
	rmdir $(DOCDIR)/examples 2>/dev/null || true
	rmdir $(DOCDIR) 2>/dev/null || true

## A Debian package, DEB_DIR/here-weather_<version>_<arch>.deb, of what `make install`
## installs under /usr plus the copyright, changelog and an example config; checked with
## lintian when it is installed (scripts/make-deb; README.md: "Install").
deb:
	scripts/install-deps deb
	rm -rf $(DEB_STAGE)
	$(MAKE) --no-print-directory install DESTDIR="$(abspath $(DEB_STAGE))" PREFIX=/usr \
		ZSHDIR="$(abspath $(DEB_STAGE))/usr/share/zsh/vendor-completions"
	scripts/make-deb "$(DEB_STAGE)" "$(DEB_DIR)"

clean:
	rm -rf $(BUILD_PATH) .build-install .build-fuzz
	rm -rf --one-file-system .build-distros
