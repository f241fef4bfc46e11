# apns-mock — the two commands a newcomer needs:
#   make run    install what is missing (apt), build, serve on the defaults
#   make test   the same set-up, then the whole test suite (unit, HTTP/2, end-to-end, the examples,
#               AddressSanitizer with leak detection, 5 s of each fuzz target, a 60-second soak); CI
#               runs it with BESIDE_CLIENTS=ci-release-checks (the image, dist/ and bench-guard, beside
#               the client libraries). make test-long runs ThreadSanitizer, the Swift example as a
#               dependency, the fuzz targets and the soak for longer.

SHELL := /bin/bash
SWIFT ?= swift
VENV := .venv-e2e
PYTHON := $(VENV)/bin/python
REQUIREMENTS := Tests/EndToEndTests/Clients/requirements.txt
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian/Ubuntu packages: to build, and (TEST_PACKAGES) to run the end-to-end clients and the client libraries
# (Go, Java with Debian's Jackson and JUnit 5, npm for make dist's package).
BUILD_PACKAGES := libnghttp2-dev libssl-dev libyaml-dev pkg-config
TEST_PACKAGES := curl nghttp2-client openssl python3-venv nodejs npm chromium golang-go openjdk-17-jdk-headless junit5 libjackson2-databind-java

.PHONY: dist test-dist ci-release-checks test-prepare test-packages test-venv examples-python-node static-libs test-long generate check-generated settings-table bench-journal bench-channels run build release release-static image test-image test test-unit test-clients asan-build test-asan test-tsan test-examples test-soak soak deps test-deps format lint clean screenshots fuzz fuzz-build test-fuzz

# The commit `apns-mock --version` names (Package.swift reads it): with -dirty when the tree has changes.
export APNS_MOCK_COMMIT := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && { git diff --quiet HEAD 2>/dev/null && echo $$c || echo $$c-dirty; })

# Builds only the server (not the benchmark and fuzz tools), then serves.
run: deps
	$(SWIFT) build --product apns-mock
	.build/debug/apns-mock serve

build:
	$(SWIFT) build

# Release builds: cross-module optimization (Core's types inlined and specialized into the server)
# and no run-time exclusivity checks (every access to a class property paid one); measured in
# docs/BENCHMARKS.md. Given here, not in Package.swift, so that a package depending on apns-mock
# is compiled as its own manifest says (unsafeFlags would apply to it and older toolchains refuse them).
RELEASE_FLAGS := -c release -Xswiftc -cross-module-optimization -Xswiftc -enforce-exclusivity=unchecked
export RELEASE_FLAGS

release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

# The binary the container image carries: the same release build with the Swift standard library and Foundation
# linked statically (only libnghttp2, libssl and glibc stay dynamic), stripped (install -s: 149 MB -> 81 MB; the
# static runtime has no swift-backtrace helper to read symbols anyway), copied to dist/apns-mock. In its own scratch
# path: in .build the static and the dynamic link of one product would replace each other whenever `make release`
# or `make bench` and this target alternate. The Dockerfile's build stage runs it with IMAGE_SCRATCH=.build.
# Compiled without debug info (-gnone, -g0): the binary is stripped anyway, and writing DWARF that `install -s` then
# drops cost CI compile and link time. bench-guard builds its tool in the same tree with the same flags.
# APNS_MOCK_BUILD_CACHE (a directory; .ci/run sets one under ~/.cache) puts the release-static and instrumented
# trees there instead, where the next clone finds its dependencies compiled: only apns-mock's modules are
# compiled again (the instrumented build of a second clone took 622 s against 1,136 s). SwiftPM locks a tree
# while it builds in it; two runs at once would replace each other's apns-mock modules, so CI runs one at a time.
ifneq ($(APNS_MOCK_BUILD_CACHE),)
IMAGE_SCRATCH ?= $(APNS_MOCK_BUILD_CACHE)/release-static
else
IMAGE_SCRATCH ?= .build-image
endif
# $(call CACHED_BUILD,TREE,COMMAND): runs the build COMMAND; in a cached tree (APNS_MOCK_BUILD_CACHE), a failure
# empties TREE (all but its static-libs) and builds once more from scratch, so that a cache SwiftPM cannot use (a
# module cache whose path moved fails with "was compiled with module cache path") costs time, not a red run.
CACHED_BUILD = $(2) $(if $(APNS_MOCK_BUILD_CACHE),|| { echo "make: the cached tree $(1) did not build; building it from scratch"; \
  find $(1) -mindepth 1 -maxdepth 1 ! -name static-libs -exec rm -rf {} +; $(2); })
# OpenSSL, libnghttp2 and libyaml are linked statically too, from the archives Debian's -dev packages ship. SwiftPM
# links a system library with what pkg-config says (-L<libdir> -lssl), and GNU ld takes a .so over a .a in the same
# directory; so STATIC_LIBS holds links to the archives only, and .pc files that name it as the libdir
# (PKG_CONFIG_PATH), which the linker then searches first. The binary needs only glibc (make dist checks it).
MULTIARCH := $(shell gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
STATIC_LIBS := $(abspath $(IMAGE_SCRATCH))/static-libs
STATIC_PC := libssl libcrypto openssl libnghttp2 yaml-0.1
STATIC_BUILD_FLAGS := --static-swift-stdlib -Xswiftc -gnone -Xcc -g0
STATIC_ENV := PKG_CONFIG_PATH=$(STATIC_LIBS)/pkgconfig
# Written only when they differ, and by a rename: two makes may run this at once (CI's bench-guard and test-image).
static-libs: deps
	@mkdir -p $(STATIC_LIBS)/pkgconfig && for l in ssl crypto nghttp2 yaml; do \
	  a=/usr/lib/$(MULTIARCH)/lib$$l.a; [ "$$(readlink $(STATIC_LIBS)/lib$$l.a)" = "$$a" ] || ln -sf "$$a" $(STATIC_LIBS)/; done; \
	for pc in $(STATIC_PC); do f=$(STATIC_LIBS)/pkgconfig/$$pc.pc; \
	  sed 's|^libdir=.*|libdir=$(STATIC_LIBS)|' "$$(pkg-config --variable pcfiledir $$pc)/$$pc.pc" > $$f.$$$$; \
	  if cmp -s $$f.$$$$ $$f; then rm -f $$f.$$$$; else mv -f $$f.$$$$ $$f; fi; done

release-static: static-libs
	$(call CACHED_BUILD,$(IMAGE_SCRATCH),$(STATIC_ENV) $(SWIFT) build $(RELEASE_FLAGS) $(STATIC_BUILD_FLAGS) --product apns-mock --scratch-path $(IMAGE_SCRATCH))
	install -D -s -m 0755 "$$($(SWIFT) build $(RELEASE_FLAGS) --scratch-path $(IMAGE_SCRATCH) --show-bin-path)/apns-mock" dist/apns-mock.new
	mv -f dist/apns-mock.new dist/apns-mock  # a rename: a server running dist/apns-mock, or starting, never misses it

# What a release publishes, into dist/ (scripts/dist.sh says what each file is and checks the binary: only glibc,
# at most 45 MiB); make test-dist installs each package in a clean Debian container without Swift.
dist: release-static test-deps
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" scripts/dist.sh

# The container image with podman (no Docker, no registry needed): see docs/CONTAINER.md.
# test-image also runs it, pushes through it, and runs docker-compose.yml with podman-compose.
image:
	scripts/image.sh build

# make test-examples and make test-soak run dist/apns-mock; make test builds it first (make release-static),
# run on their own they build it only when it is missing.
dist/apns-mock:
	$(MAKE) release-static

test-image:
	scripts/image.sh test

# Each package make dist wrote into dist/ (DIST=dir for another), used as a team without Swift, without this
# repository and without APNS_MOCK_BIN would: in a Debian container (the Dockerfile's dist-test stage, built once)
# with only dist/ and a small project of Tests/Dist mounted, pip install the wheel and pytest, npm install the .tgz
# and node --test, javac and JUnit against the jar, go get from dist/goproxy and go test (scripts/test-dist.sh).
test-dist:
	scripts/test-dist.sh

# CI's checks of what a release publishes, on the builds make test made, run beside its examples and clients
# (make test BESIDE_CLIENTS=ci-release-checks): the image (make test-image), dist/'s files (scripts/dist.sh
# alone: make dist's release-static would install dist/apns-mock again under the clients running it) and their
# install test (make test-dist), with bench-guard beside those (callgrind's counts do not depend on the load).
ci-release-checks:
	@$(MAKE) bench-guard > $(IMAGE_SCRATCH)/bench-guard.log 2>&1 & guard=$$!; status=0; \
	{ $(MAKE) test-image && PATH="$(CURDIR)/$(VENV)/bin:$$PATH" scripts/dist.sh && $(MAKE) test-dist; } || status=1; \
	wait $$guard || status=1; echo "ci-release-checks: bench-guard (its log follows)"; \
	cat $(IMAGE_SCRATCH)/bench-guard.log; exit $$status

# Installs the packages that are missing, and nothing else.
deps:
	@missing=""; for p in $(BUILD_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

# The Python clients install again whenever requirements.txt changes: the venv keeps a copy of
# the one it was installed from.
test-deps: test-packages test-venv

test-packages: deps
	@missing=""; for p in $(TEST_PACKAGES); do \
	  case $$p in nodejs) command -v node >/dev/null && continue;; npm) command -v npm >/dev/null && continue;; openjdk-17-jdk-headless) command -v javac >/dev/null && continue;; python3-venv) python3 -c 'import venv, ensurepip' 2>/dev/null && continue;; esac; \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

test-venv:
	@[ -x $(PYTHON) ] || python3 -m venv $(VENV)
	@cmp -s $(REQUIREMENTS) $(VENV)/requirements.installed || { \
	  $(PYTHON) -m pip install -q -r $(REQUIREMENTS) && cp $(REQUIREMENTS) $(VENV)/requirements.installed; }

# The end-to-end clients are required under `make test`: a missing one fails, never skips.
TEST_ENV := APNS_MOCK_E2E_REQUIRED=1 APNS_MOCK_PYTHON=$(CURDIR)/$(PYTHON)

# Each step prints when it starts, so a CI log shows where the minutes go. The builds are the cost (each one
# compiles swift-nio, swift-crypto's BoringSSL, Hummingbird and apns-mock from scratch), so make test makes two and
# shares them: the release-static binary (dist/apns-mock, what the container image and users run) serves the
# examples and the soak, and the image test reuses it; one instrumented tree (.build-asan: AddressSanitizer plus
# libFuzzer's coverage) runs every test suite, the Swift example's tests and the fuzz targets. (ThreadSanitizer's tree,
# and the Swift example built as another package's dependency, are make test-long's.)
# The two builds run one after the other: side by side on two cores they took 1,893 s against 702 + 1,000 s.
# What waits rather than computes runs beside what computes: the venvs and the Swift example's resolution beside the
# first build (test-prepare), and the soak (a fixed minute) beside the examples and the client libraries, which
# spend much of theirs waiting on interpreters and servers; each log is printed when both are done.
STEP = @echo "make test: $(1) at $$(date +%T)"
SOAK_LOG = $(ASAN_SCRATCH)/soak.log
PREPARE_LOG = $(IMAGE_SCRATCH)/prepare.log
BESIDE_LOG = $(ASAN_SCRATCH)/beside-clients.log
# Targets to run beside the examples and the client libraries, as the soak is: CI gives make test
# BESIDE_CLIENTS=ci-release-checks (.ci/run). Empty for make test alone.
BESIDE_CLIENTS ?=
test: test-packages
	$(call STEP,release-static; beside it the installs and fetches of later steps)
	@mkdir -p $(IMAGE_SCRATCH) && $(MAKE) test-prepare > $(PREPARE_LOG) 2>&1 & prepare=$$!; status=0; \
	$(MAKE) release-static || status=1; \
	wait $$prepare || { echo "make test: the installs beside release-static FAILED"; status=1; }; \
	echo "make test: the installs beside release-static (their log follows)"; cat $(PREPARE_LOG); exit $$status
	$(call STEP,check-generated)
	$(MAKE) check-generated
	$(call STEP,asan-build)
	$(MAKE) asan-build
	$(call STEP,tests)
	$(MAKE) test-asan
	$(call STEP,fuzz)
	$(MAKE) test-fuzz
	$(call STEP,examples and clients; the soak beside them)
	@$(MAKE) test-soak > $(SOAK_LOG) 2>&1 & soak=$$!; status=0; beside=""; \
	if [ -n "$(BESIDE_CLIENTS)" ]; then $(MAKE) $(BESIDE_CLIENTS) > $(BESIDE_LOG) 2>&1 & beside=$$!; fi; \
	$(MAKE) examples-python-node || status=1; \
	echo "make test: clients at $$(date +%T)"; $(MAKE) test-clients || status=1; \
	wait $$soak || { echo "make test: the soak FAILED"; status=1; }; \
	echo "make test: soak (it ran beside the examples and clients; its log follows)"; cat $(SOAK_LOG); \
	if [ -n "$$beside" ]; then wait $$beside || { echo "make test: $(BESIDE_CLIENTS) FAILED"; status=1; }; \
	  echo "make test: $(BESIDE_CLIENTS) (beside the examples and clients; the log follows)"; cat $(BESIDE_LOG); fi; \
	exit $$status
	$(call STEP,done)

# The long runs, for a nightly job or before a release, not for every change: ThreadSanitizer over the suites that
# touch shared state (a tree of its own: about 20 minutes to build here, 3.5 to run), every fuzz target for
# FUZZ_SECONDS each, and the soak for SOAK_SECONDS. make test left ThreadSanitizer out when CI passed its 40-minute
# budget (66 minutes with it); AddressSanitizer, the fuzz targets (5 s each) and a 60-second soak stay in make test.
test-long: test-deps dist/apns-mock
	$(call STEP,tsan)
	$(MAKE) test-tsan
	$(call STEP,the Swift example as a dependency)
	$(MAKE) asan-build
	EXAMPLE_SCRATCH=$(abspath $(ASAN_SCRATCH)) EXAMPLE_BUILD_FLAGS="$(ASAN_BUILD_FLAGS)" ASAN_OPTIONS=detect_leaks=0 \
	  examples/swift/run-as-dependency.sh
	$(call STEP,fuzz)
	$(MAKE) fuzz
	$(call STEP,soak)
	$(MAKE) soak SOAK_BINARY=dist/apns-mock
	$(call STEP,done)

# The CI examples in examples/ (Python: pytest in its own venv; Node: node --test), each against
# the release-static binary (dist/apns-mock); the venv is refreshed only when requirements.txt changes.
# The Swift example's code is compiled and tested with the suites, as targets of this package (WelcomeNotifier,
# WelcomeNotifierTests); here it only resolves apns-mock by its version tag as another package would
# (run-as-dependency.sh --resolve-only, 35 s). Its whole build as a dependency took 221 s of CI: make test-long runs it.
EXAMPLES_VENV := examples/python/.venv

$(EXAMPLES_VENV)/installed: examples/python/requirements.txt
	@[ -x $(EXAMPLES_VENV)/bin/python ] || python3 -m venv $(EXAMPLES_VENV)
	$(EXAMPLES_VENV)/bin/python -m pip install -q -r $<
	@touch $@

test-examples: examples-python-node
	examples/swift/run-as-dependency.sh --resolve-only

examples-python-node: test-deps $(EXAMPLES_VENV)/installed dist/apns-mock
	cd examples/python && APNS_MOCK=$(CURDIR)/dist/apns-mock .venv/bin/python -m pytest -q -p no:cacheprovider
	cd examples/node && APNS_MOCK=$(CURDIR)/dist/apns-mock node --test

# What the later steps of make test install or fetch, done beside its first build (they wait on pip and git,
# not on the processor): the end-to-end clients' venv, the examples' venv, the Python client's venv, and the
# Swift example's resolution of apns-mock by its version tag (make test-examples' last step).
test-prepare: test-venv $(EXAMPLES_VENV)/installed
	clients/run-tests.sh --install-only
	examples/swift/run-as-dependency.sh --resolve-only

# The client libraries (clients/python: the package, its pytest plugin, also under 4 pytest-xdist workers;
# clients/node: node --test; clients/go: go test; clients/java: test.sh, javac + JUnit) against the release-static binary; the
# Testcontainers test runs in make test-image.
test-clients: test-deps dist/apns-mock
	APNS_MOCK_E2E_REQUIRED=1 APNS_MOCK_BIN=$(CURDIR)/dist/apns-mock clients/run-tests.sh

# The files generated from the admin API's document (Sources/APNSMockAdmin/openapi.yaml): the Swift operation
# table (Sources/APNSMockAdmin/Generated/AdminOperation.swift), the Python client's GeneratedClient and TypedDicts
# (clients/python/src/apns_mock/_generated.py), the Node module's (clients/node/generated.mjs, generated.d.ts) and
# the Go module's (clients/go/generated.go) and the Java library's operation table
# (clients/java/src/main/java/apnsmock/GeneratedOperations.java). make generate writes them; make check-generated
# (the start of make test) fails, naming each file, while a
# committed one differs from what the document gives. Python with PyYAML (the test venv) and swift format.
GENERATOR := scripts/generate-admin-api.py

generate: test-deps
	$(PYTHON) $(GENERATOR)

check-generated: test-deps
	$(PYTHON) $(GENERATOR) --check

# Writes docs/COMMAND-LINE.md's settings table from the one declaration of every serve setting
# (Sources/APNSMockRegistry/ServeSetting.swift); make test fails while they differ.
settings-table: deps
	APNS_MOCK_WRITE_SETTINGS_TABLE=1 $(SWIFT) test --disable-xctest --filter ServeSettingTests

test-unit: deps
	$(SWIFT) test --disable-xctest --filter 'APNSMockCoreTests|APNSMockStoreTests|APNSMockRegistryTests|APNSMockAdminTests|APNSMockTransportTests'

# The instrumented tree make test runs every suite in, and make fuzz runs the fuzz targets from: every module
# (Swift and C) compiled with AddressSanitizer and libFuzzer's coverage instrumentation (what swiftc's
# -sanitize=fuzzer adds: edges, indirect calls, comparisons, inline 8-bit counters, the PC table), and
# apns-mock-fuzz built as a libFuzzer binary (APNS_MOCK_FUZZING: its main runs LLVMFuzzerRunDriver; Package.swift
# links libFuzzer without its main, the toolchain's libclang_rt.fuzzer_no_main, named by APNS_MOCK_LIBFUZZER).
# One build instead of two: the fuzz build from scratch took about 5 minutes of CI. (-sanitize=fuzzer would link
# libFuzzer's own main into every executable and the test runner, which have theirs.)
ifneq ($(APNS_MOCK_BUILD_CACHE),)
ASAN_SCRATCH := $(APNS_MOCK_BUILD_CACHE)/asan
else
ASAN_SCRATCH := .build-asan
endif
SWIFT_TOOLCHAIN := $(shell dirname "$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")")")
LIBFUZZER := $(firstword $(wildcard $(SWIFT_TOOLCHAIN)/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-$(shell uname -m).a))
ASAN_ENV := APNS_MOCK_LIBFUZZER=$(LIBFUZZER)
# Both sanitizer trees keep line tables only (-gline-tables-only): a report still names each frame's file and line,
# and the compiler and linker skip the type information nobody reads there.
SANITIZER_DEBUG_FLAGS := -Xswiftc -gline-tables-only -Xcc -gline-tables-only
# libFuzzer's coverage is on every module, the dependencies too: given to apns-mock's targets only (in Package.swift)
# it saved 31 s of this build (969 s against 1,000) and took the YAML targets' guidance through libyaml and the
# provider-token target's through swift-crypto (cov 2,048 -> 674 and 1,889 -> 907 in 5-s runs).
ASAN_BUILD_FLAGS := --sanitize=address -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table \
  -Xcc -fsanitize=fuzzer-no-link -Xswiftc -DAPNS_MOCK_FUZZING $(SANITIZER_DEBUG_FLAGS)
asan-build: test-deps
	$(call CACHED_BUILD,$(ASAN_SCRATCH),$(ASAN_ENV) $(SWIFT) build --build-tests --scratch-path $(ASAN_SCRATCH) $(ASAN_BUILD_FLAGS))

# Every test suite under AddressSanitizer: the C boundary is where memory bugs hide. Leak detection
# is on for the test runner (its in-process servers) and every apns-mock process it starts (servers,
# CLI commands), with Tests/Sanitizers/lsan-suppressions.txt (code that is not apns-mock's:
# Foundation's Process and Pipe, HummingbirdTesting's channels, swift-crypto's RSA keygen) and
# Tests/Sanitizers/asan-suppressions.txt (Foundation's Process.run reading past a buffer). Every
# process writes its report to ASAN_REPORTS and scripts/sanitizer-reports.sh fails the run on any.
# Swift's crash backtracer is off here (SWIFT_BACKTRACE=enable=no): it reads the crashed process's
# thread stacks, AddressSanitizer stops that read as a stack-buffer-underflow, and the backtracer
# then waited for ever (a CI run hung 8 minutes after a test process trapped); a trap now fails the
# run at once, and AddressSanitizer's own reports are unchanged.
# The unsanitized debug build (make build, make run) is not tested separately: the same tests pass
# instrumented, and CI had no time for a sixth build.
ASAN_REPORTS := $(ASAN_SCRATCH)/reports
test-asan: asan-build
	rm -rf $(ASAN_REPORTS) && mkdir -p $(ASAN_REPORTS)
	status=0; ASAN_OPTIONS=detect_leaks=1:log_path=$(abspath $(ASAN_REPORTS))/report:suppressions=$(CURDIR)/Tests/Sanitizers/asan-suppressions.txt \
	  APNS_MOCK_SANITIZER=address SWIFT_BACKTRACE=enable=no \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan-suppressions.txt:print_suppressions=0 \
	  $(TEST_ENV) $(ASAN_ENV) $(SWIFT) test --skip-build --disable-xctest --scratch-path $(ASAN_SCRATCH) $(ASAN_BUILD_FLAGS) \
	  || status=$$?; \
	scripts/sanitizer-reports.sh $(ASAN_REPORTS) AddressSanitizer && exit $$status

# The soak (scripts/soak.py): SOAK_BINARY (the debug build unless given) under h2load, a raw HTTP/2 client, httpx, fault rules,
# modes, broadcasts and admin readers (a waiter, an event stream, a pager) for SOAK_SECONDS; passes
# when RSS and open fds stay flat after the warm-up and every request sent is accounted for
# (recorded, evicted, or refused before it became a request). `make test` runs it for 60 s.
SOAK_SECONDS ?= 1800

SOAK_BINARY ?= .build/debug/apns-mock

soak: test-deps
	[ "$(SOAK_BINARY)" != .build/debug/apns-mock ] || $(SWIFT) build --product apns-mock
	SOAK_SECONDS=$(SOAK_SECONDS) $(PYTHON) scripts/soak.py --binary $(SOAK_BINARY)

# make test soaks the release-static binary it built (the one users and the image run).
test-soak: dist/apns-mock
	$(MAKE) soak SOAK_SECONDS=60 SOAK_BINARY=dist/apns-mock

# ThreadSanitizer on the suites that touch shared state: the registry, store, transport, admin and
# metrics units and the end-to-end tests (in-process servers with real clients, and the apns-mock
# processes they start, instrumented too). Reports from every process land in TSAN_REPORTS and fail
# the run. OpenAPIConformanceTests is left to the plain run (schemathesis takes minutes under a
# sanitizer and checks the API's documents, not its threads).
TSAN_REPORTS := .build-tsan/reports
TSAN_SUITES := APNSMockRegistryTests|APNSMockStoreTests|APNSMockTransportTests|APNSMockAdminTests|APNSMockMetricsTests|EndToEndTests
test-tsan: test-deps
	rm -rf $(TSAN_REPORTS) && mkdir -p $(TSAN_REPORTS)
	status=0; TSAN_OPTIONS=log_path=$(CURDIR)/$(TSAN_REPORTS)/report APNS_MOCK_SANITIZER=thread \
	  $(TEST_ENV) $(SWIFT) test --disable-xctest --scratch-path .build-tsan --sanitize=thread $(SANITIZER_DEBUG_FLAGS) \
	  --filter '$(TSAN_SUITES)' --skip OpenAPIConformanceTests || status=$$?; \
	scripts/sanitizer-reports.sh $(TSAN_REPORTS) ThreadSanitizer && exit $$status

# The dashboard's screenshots in the README (docs/screenshots/*.png): a mock on free ports with
# the example configuration, a few pushes, Debian's chromium driven by playwright (as the browser
# tests are; no browser download).
screenshots: test-deps
	$(SWIFT) build --product apns-mock
	$(PYTHON) scripts/dashboard_screenshots.py .build/debug/apns-mock docs/screenshots

format:
	$(SWIFT) format -i -r Sources Tests Package.swift

lint:
	$(SWIFT) format lint -r Sources Tests

clean:
	rm -rf .build .build-asan .build-tsan .build-image fuzz-out dist $(VENV) $(EXAMPLES_VENV) .venv-image .venv-dist clients/python/.venv

# libFuzzer targets (Sources/APNSMockFuzzTargets; `APNS_MOCK_FUZZ_TARGET=list` names them): one
# binary, apns-mock-fuzz, from the instrumented tree (asan-build above: AddressSanitizer and libFuzzer's
# coverage in every module, libFuzzer's main linked into this binary alone). A run that says "Is the code
# instrumented for coverage?" fails. make fuzz (scripts/fuzz.sh) runs each target for FUZZ_SECONDS, FUZZ_JOBS
# at a time (libFuzzer uses one core; default: every core), from its committed seeds
# (Tests/FuzzCorpus/<target>, read only) into fuzz-out/corpus/<target>, and prints exec/s; a crash,
# an ASan report, a timeout (FUZZ_TIMEOUT s for one input) or RSS over FUZZ_RSS_MB is written to
# fuzz-out/artifacts/<target>/ and fails the run. FUZZ_TARGETS picks some: make fuzz FUZZ_TARGETS=json.
# make test-fuzz (part of make test) runs each one briefly (FUZZ_SECONDS=5).
FUZZ_BIN := $(ASAN_SCRATCH)/debug/apns-mock-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
FUZZ_RSS_MB ?= 2048
FUZZ_TARGETS ?=
FUZZ_OUT ?= fuzz-out

fuzz-build: asan-build

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) FUZZ_RSS_MB=$(FUZZ_RSS_MB) FUZZ_OUT=$(FUZZ_OUT) \
	  scripts/fuzz.sh $(FUZZ_BIN) $(FUZZ_TARGETS)

test-fuzz:
	$(MAKE) fuzz FUZZ_SECONDS=5

# HTTP/2 load benchmark (docs/BENCHMARKS.md): apns-mock (release build) beside nghttpd and h2o
# under h2load. Installs nghttp2-client, nghttp2-server and h2o through apt if missing.
# Writes bench-results/latest.md. BENCH_QUICK=1 (or make bench-quick): one short repetition.
# BENCH_BASELINE=<git revision>: that revision's release build (bench/baseline.sh) is measured
# beside this one in every round, and the report gives this build's cost against it.
.PHONY: bench bench-quick bench-instructions bench-guard bench-cores bench-admin bench-fleet

bench: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product apns-mock
	if [ -n "$(BENCH_BASELINE)" ]; then \
		BASELINE_BIN=$$(bench/baseline.sh "$(BENCH_BASELINE)") && \
		BASELINE_BIN=$$BASELINE_BIN BASELINE_LABEL="$(BENCH_BASELINE)" bench/run.sh; \
	else bench/run.sh; fi
	$(MAKE) bench-instructions
	$(MAKE) bench-channels

# Instructions per request under valgrind's callgrind (in-memory client and server sessions, no
# sockets): a regression figure that repeats on a busy machine.
# The admin API's latency (GET /health, GET /v1/deliveries?limit=1; 1,000 sequential requests a round, over
# one keep-alive connection) of the release build, and of BENCH_BASELINE's when given, in interleaved rounds.
bench-admin: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product apns-mock
	python3 bench/admin-latency.py "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/apns-mock" \
	  $$([ -z "$(BENCH_BASELINE)" ] || RELEASE_FLAGS="$(RELEASE_FLAGS)" bench/baseline.sh "$(BENCH_BASELINE)")

bench-instructions: deps
	bench/instructions.sh

# The CI guard: the server session's instructions per push (100 B and 4 KB) against
# bench/instructions-baseline.txt; fails when one exceeds its baseline by more than 5 %.
# The guard counts the release-static build of the container image (make release-static, in
# $(IMAGE_SCRATCH)): CI has compiled those modules for make test-image already, so the guard adds one
# module and a link. Its baseline (bench/instructions-baseline.txt) is counted the same way.
bench-guard: static-libs
	$(STATIC_ENV) BENCH_SCRATCH=$(IMAGE_SCRATCH) BENCH_BUILD_FLAGS="$(STATIC_BUILD_FLAGS)" bench/instructions-guard.sh

bench-quick:
	BENCH_QUICK=1 $(MAKE) bench

# p50/p99/p99.9 at -c 1 -m 1 with and without --journal, in interleaved rounds (bench/journal-latency.sh;
# docs/BENCHMARKS.md, "The journal").
bench-journal: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product apns-mock
	bench/journal-latency.sh

# Live Activity channels at scale: a million subscribers in bulk, a broadcast's time to its 200 and its
# fan-out, peak RSS, 100,000 subscribed one at a time (bench/channels-scale.py; docs/BENCHMARKS.md).
bench-channels: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product apns-mock
	python3 bench/channels-scale.py

# Device state for a fleet: a million devices set offline in bulk, one PUT and one GET at that size
# against 10 devices, idle CPU, peak RSS (bench/fleet-scale.py; docs/BENCHMARKS.md, issue 40).
bench-fleet: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product apns-mock
	python3 bench/fleet-scale.py

# Several event loops: futex calls (contended locks) per 1,000 pushes with 1 and 2 event loops
# (bench/cores.sh; docs/BENCHMARKS.md, "Several cores"). About a minute after the release build.
bench-cores: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product apns-mock
	bench/cores.sh
