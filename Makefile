# Networking: every command a developer or CI needs. Toolchain only: swift, python3 (for test servers).
SWIFT        ?= swift
HTTPBIN      := python3 Tests/Servers/httpbin.py
FORMAT_CONF  := Sources/.swift-format
FORMAT_PATHS := Sources Tests Package.swift
# DocC: the toolchain's on PATH (Linux), else Xcode's through xcrun (a Mac).
DOCC         ?= $(shell command -v docc 2>/dev/null || xcrun --find docc 2>/dev/null || echo docc)

.PHONY: help build test demo record bench lint snippets format check-deps strict docs doc-samples api-check api-baseline fuzz sanitize portability soak cache-tests clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-11s %s\n", $$1, $$2}'

build: ## Build every target (debug)
	$(SWIFT) build

test: check-deps ## Run every test: unit tests and real-server tests (servers start and stop themselves)
	@# The fault server's TLS 1.3 client-certificate listener needs a Python whose ssl has TLS 1.3 (Xcode's has not).
	@python3 Tests/Servers/lifecycle.py tls13-python >/dev/null
	@Tests/Servers/ensure_nginx.sh test
	@# httpbin runs under gunicorn in a venv under .build (created on first use); it is stopped on success,
	@# failure and interruption. The fault server is started by the test process itself and exits with it.
	@# with_test_ca.sh makes a certificate authority for the run and trusts it for the tests alone (TLS tests).
	@# The real-server suite runs twice: on the URLSession transport with everything else, then on libcurl.
	@url=$$($(HTTPBIN) start --parent-pid $$$$) || { echo "make test: httpbin did not start" >&2; exit 1; }; \
	trap '$(HTTPBIN) stop' EXIT; trap 'exit 130' INT TERM; \
	HTTPBIN_URL="$$url" Tests/Servers/with_test_ca.sh $(SWIFT) test $(TEST_ARGS) && \
	echo "make test: the real-server suite again, on the libcurl transport (NETWORKING_TEST_TRANSPORT=curl)" && \
	env $(CURL_TEST_ENV) NETWORKING_TEST_TRANSPORT=curl HTTPBIN_URL="$$url" Tests/Servers/with_test_ca.sh \
		$(SWIFT) test --skip-build --filter RealServerTests $(CURL_TEST_ARGS)

demo: ## Run the demo on its bundled fixtures: no server, no network (ARGS="--base-url URL" to go live)
	@echo "Building the demo (a first build compiles the whole package, a minute or two: progress below)..."
	@$(SWIFT) build --product Demo
	@$(SWIFT) run -q --skip-build Demo $(ARGS)

record: check-deps ## Record the demo's calls against the local httpbin into a temporary folder, twice, then replay offline
	@# httpbin's /anything answers every path with an echo of the request, so it stands in for the countries API:
	@# the demo's decoding of countries fails there, the same way live and replayed. What this shows: the calls are
	@# recorded (secrets scrubbed), a second recording makes no diff, and the replay needs no server.
	@$(SWIFT) build -q --product Demo
	@dir=$$(mktemp -d); \
	url=$$($(HTTPBIN) start --parent-pid $$$$) || { echo "make record: httpbin did not start" >&2; exit 1; }; \
	trap '$(HTTPBIN) stop; rm -rf "$$dir"' EXIT; trap 'exit 130' INT TERM; \
	base="$$url/anything/v3.1"; \
	echo "1. Recording the demo's calls against httpbin ($$base) into $$dir/first"; \
	$(SWIFT) run -q --skip-build Demo --no-color --base-url "$$base" --record "$$dir/first" > "$$dir/live.txt" 2>&1; \
	test -f "$$dir/first/fixtures.json" || { echo "make record: nothing was recorded" >&2; cat "$$dir/live.txt"; exit 1; }; \
	(cd "$$dir/first" && find . -type f | sort | sed 's|^\./|   |'); \
	echo "2. Recording them again into $$dir/second: diff -r first second"; \
	$(SWIFT) run -q --skip-build Demo --no-color --base-url "$$base" --record "$$dir/second" > /dev/null 2>&1; \
	diff -r "$$dir/first" "$$dir/second" || { echo "make record: the second recording differs" >&2; exit 1; }; \
	echo "   no difference"; \
	if grep -rq "demo-secret-token" "$$dir/first"; then echo "make record: a secret reached disk" >&2; exit 1; fi; \
	echo "   the demo's token appears in no recorded file"; \
	echo "3. Replaying $$dir/first offline (no server, no network)"; \
	$(SWIFT) run -q --skip-build Demo --no-color --replay "$$dir/first" > "$$dir/replay.txt" 2>&1; \
	live=$$(grep '^Summary:' "$$dir/live.txt"); replayed=$$(grep '^Summary:' "$$dir/replay.txt"); \
	echo "   live:     $$live"; echo "   replayed: $$replayed"; \
	test -n "$$live" && test "$$live" = "$$replayed" || { echo "make record: the replay differs from the live run" >&2; exit 1; }; \
	echo "make record: recorded, recorded again with an empty diff, replayed offline with the same outcome"

bench: ## Measure the client side by side in one run (release build; installs nginx if missing)
	@Tests/Servers/ensure_nginx.sh bench
	@command -v curl >/dev/null 2>&1 || { \
		echo "Installing curl (Debian package curl) for the download benchmark..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq curl >/dev/null; } \
		|| { echo "curl could not be installed; install it (apt-get install curl) and run make bench again"; exit 1; }
	@# Part 9 counts per call with valgrind (allocations, instructions), perf or strace (futex calls) and objcopy.
	@missing=""; for tool in valgrind:valgrind strace:strace objcopy:binutils; do \
		command -v $${tool%%:*} >/dev/null 2>&1 || missing="$$missing $${tool#*:}"; done; \
	if [ -n "$$missing" ]; then echo "Installing$$missing (Debian) for the counts of part 9..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing >/dev/null \
		|| { echo "install$$missing and run make bench again"; exit 1; }; fi
	@echo "Building the benchmarks in release mode..."
	@$(SWIFT) build -q -c release --product Benchmarks
	@$(SWIFT) run -q -c release --skip-build Benchmarks $(ARGS)

soak: ## A million calls through the full chain on libcurl, 64 callers, against a server mixing in faults (CALLS=N)
	@echo "Building the benchmarks in release mode..."
	@$(SWIFT) build -q -c release --product Benchmarks
	@$(SWIFT) run -q -c release --skip-build Benchmarks --soak $(or $(CALLS),1000000)

lint: check-deps snippets ## Check formatting, documentation of every public symbol, every doc sample alone, and octets in the parsers of network bytes
	$(SWIFT) format lint --strict --recursive --configuration $(FORMAT_CONF) $(FORMAT_PATHS)
	@# No retroactive conformance: swift-format 6.1's AvoidRetroactiveConformances, which 6.0 (Xcode 16.0 to 16.2) does
	@# not know, so the configuration cannot name it (Tests/Tools/format_config_check.py).
	@! grep -rn --include='*.swift' '@retroactive' $(FORMAT_PATHS) || { echo "make lint: a retroactive conformance (above)" >&2; exit 1; }
	@# The parsers of bytes from the network cut and compare octets, never Characters (U+037E is ';' to Swift).
	@python3 Tests/Tools/octet_check.py

snippets: ## Compile each Swift sample of README.md, Plugins.md and the articles alone, with only the imports it shows
	@# Each sample in a file and a module of its own, type-checked against the library's modules (a build of the
	@# library products first); a sample that leans on another's declarations or a missing import fails here.
	$(SWIFT) build --target Networking --target NetworkingTesting
	python3 Tests/Tools/compile_doc_snippets.py --bin-path "$$($(SWIFT) build --show-bin-path)"

format: ## Format the sources in place
	$(SWIFT) format --in-place --recursive --configuration $(FORMAT_CONF) $(FORMAT_PATHS)

strict: ## Build everything, tests included, with warnings as errors
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors

docs: ## Build the DocC documentation (toolchain docc, no plugin; xcrun docc on a Mac); fails on any DocC warning
	@# The toolchain's docc: on PATH with swift.org's Linux toolchain, through xcrun with Xcode (checked on Linux; not
	@# run on a Mac yet).
	@command -v "$(DOCC)" >/dev/null 2>&1 || { echo "make docs: no docc found (the Swift toolchain's; with Xcode: xcrun --find docc)" >&2; exit 1; }
	@# Symbol graphs of every module from a build of its own (a fresh one: an incremental build emits no graph
	@# for a module it does not recompile, and other flags would invalidate the everyday build), then one archive.
	@rm -rf .build/docs && mkdir -p .build/docs/symbol-graphs
	@for target in Networking NetworkingTesting; do \
		$(SWIFT) build -q --scratch-path .build/docs --target $$target -Xswiftc -emit-symbol-graph \
			-Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build/docs/symbol-graphs || exit 1; done
	$(DOCC) convert Sources/Networking/Networking.docc --additional-symbol-graph-dir .build/docs/symbol-graphs \
		--fallback-display-name Networking --fallback-bundle-identifier networking \
		--output-path .build/docs/Networking.doccarchive --warnings-as-errors
	@echo "Documentation: .build/docs/Networking.doccarchive"

sanitize: ## Linux only: make test under ThreadSanitizer, then AddressSanitizer, leak-checking the libcurl pass
	@[ "$$(uname -s)" = Linux ] || { echo "make sanitize: Linux only (its leak check needs LeakSanitizer, which Xcode's AddressSanitizer does not offer, and its suppressions are of Linux's Foundation); on a Mac: swift test --sanitize=thread" >&2; exit 1; }
	@# A report fails the run (the sanitizers exit non-zero after reporting). Tests/Sanitizers/*.supp hold only
	@# reports of the toolchain's own code, each with its reason: nothing of this package is suppressed.
	@# Leaks are checked on the real-server suite over libcurl (the default transport), not on the first pass: its
	@# unit tests leave tasks suspended on purpose (a refresher that never returns, a producer ignoring
	@# backpressure), which a leak check at exit reports, and Linux's URLSession leaks about 80 bytes a request.
	@# The leak check unwinds each allocation fully (fast_unwind_on_malloc=0, about 4 minutes instead of 1): the
	@# fast unwinder stops in libcurl, which keeps no frame pointers, so a leak there shows no caller to tell
	@# Foundation's known leak from one of CurlTransport (seen in a fresh-clone CI run: 55 URLs, unsuppressed).
	@# Tests run one at a time here (--no-parallel): under the sanitizers' slowdown, tests that spin on the CPU for
	@# half a minute (the hostile-input ones) can hold both of the cooperative pool's threads, and timing tests
	@# waiting 30 s for their tasks to run gave up (twice in one CI run). Each test's own concurrency is unchanged.
	@# The ThreadSanitizer build says -DNETWORKING_TSAN: the three states that sit behind Synchronization's Mutex on
	@# Linux (a body buffer, an attempt's record, a transfer's interruption) take the lock box instead, a pthread
	@# mutex TSan sees. The toolchain's Mutex locks with futex calls from code TSan does not instrument, so a value
	@# it guards is reported as raced however it is used (a 15-line program: two threads appending under
	@# Mutex.withLock get "data race" and "Swift access race"); the code under the lock is the same either way.
	TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 suppressions=$(CURDIR)/Tests/Sanitizers/tsan.supp" \
		$(MAKE) test TEST_ARGS="--scratch-path .build-tsan --sanitize=thread -Xswiftc -DNETWORKING_TSAN --no-parallel $(TEST_ARGS)" \
		CURL_TEST_ARGS="--scratch-path .build-tsan --sanitize=thread"
	ASAN_OPTIONS="detect_leaks=0 halt_on_error=1" SWIFT_BACKTRACE=enable=no \
		$(MAKE) test TEST_ARGS="--scratch-path .build-asan --sanitize=address --no-parallel $(TEST_ARGS)" \
		CURL_TEST_ARGS="--scratch-path .build-asan --sanitize=address" \
		CURL_TEST_ENV="ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:fast_unwind_on_malloc=0 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp"

cache-tests: ## Run the public HTTP cache suite (http-tests/cache-tests, Node.js) through the cache (MODE=shared, SUITE=dir)
	@# The suite's own client, origin server and checks; the cache under test is HTTPCacheBehavior over a real
	@# transport (Tests/Tools/cache_suite.py). Without SUITE, the suite is cloned once into .build/cache-tests.
	@command -v node >/dev/null 2>&1 || { echo "make cache-tests needs Node.js 18 or later (apt-get install nodejs)"; exit 1; }
	@$(SWIFT) build -q --product CacheSuiteProxy
	@python3 Tests/Tools/cache_suite.py --mode $(or $(MODE),private) $(if $(SUITE),--suite $(SUITE)) $(ARGS)

fuzz: ## Linux only: fuzz every parser of network bytes with libFuzzer and ASan (SECONDS=600 each; 60 to smoke)
	@Tests/Tools/fuzz.sh $(or $(SECONDS),600) $(HARNESS)

doc-samples: ## Write the doc comments' Swift samples into a test file the build compiles (after editing one)
	python3 Tests/Tools/extract_doc_samples.py

api-check: ## Linux only: fail on a public API change that breaks code written for the last release (CHANGELOG.md)
	@[ "$$(uname -s)" = Linux ] || { echo "make api-check: Linux only (the baseline in Tests/API is Linux's API; Apple platforms' modules differ, so the comparison belongs to Linux CI)" >&2; exit 1; }
	$(SWIFT) build --target Networking --target NetworkingTesting
	python3 Tests/Tools/api_check.py check

api-baseline: ## Linux only: at a release, write the API baseline of the version CHANGELOG.md names last
	@[ "$$(uname -s)" = Linux ] || { echo "make api-baseline: Linux only (the baseline is Linux's API, compared on Linux)" >&2; exit 1; }
	$(SWIFT) build --target Networking --target NetworkingTesting
	python3 Tests/Tools/api_check.py baseline

portability: ## Check here what a Mac or iPhone build would meet: guarded platform names, Apple code paths built and run
	@python3 Tests/Tools/portability_check.py --self-test Sources Tests
	@# Declarations needing a newer Apple OS than Package.swift's minimums, used outside an @available or
	@# #available of their version (the generated doc samples included); first on its own fixtures.
	@python3 Tests/Tools/availability_check.py --self-test Sources Tests
	@# httpbin's and the duplex server's pins resolved for each CPython a contributor may have (a Mac: Xcode's 3.9,
	@# Homebrew's 3.12 to 3.14), here and on macOS (PyPI; a pass is remembered in .build for the same pins); make
	@# test stopping in one line where no Python has TLS 1.3.
	@python3 Tests/Tools/httpbin_pins_check.py
	@# Sources/.swift-format holds only settings swift-format 6.0 (Xcode 16.0) reads, so make lint runs on every Xcode.
	@python3 Tests/Tools/format_config_check.py
	@# Every test key names its curve (a Mac's LibreSSL writes explicit parameters unless told), in the code and in
	@# the keys Tests/Servers/certificates.py makes.
	@python3 Tests/Tools/named_curve_check.py Sources Tests Makefile .ci
	@# Real-server expectations of a failure code the engine chooses say whose it is (TestEngine: libcurl's
	@# exactly, the weaker promise on Apple's loader) or why every engine reports it.
	@python3 Tests/Tools/engine_expectations_check.py --self-test Tests/NetworkingRealServerTests
	@# The fault server's paced bodies carry a type Apple's loader passes at once (it holds an untyped head back).
	@python3 Tests/Tools/streamed_type_check.py
	@# The Linux-only targets and .ci/run, run with a uname that answers Darwin: each stops in one line saying so.
	@python3 Tests/Tools/linux_only_check.py
	@# The branches Apple platforms take where Linux has the same API (NSLock in the lock box, a lock box for the
	@# attempt's record, URLSession task suspension and metrics) are built on Linux with NETWORKING_APPLE_PATHS
	@# and the core's tests run on them. What only Apple has (Security, UIKit) is not compiled here.
	$(SWIFT) build --build-tests --build-path .build-apple-paths -Xswiftc -DNETWORKING_APPLE_PATHS
	$(SWIFT) test --skip-build --build-path .build-apple-paths --filter 'NetworkingCoreTests|NetworkingResilienceTests|NetworkingTestingTests'

check-deps: ## Fail if Package.swift declares any package dependency
	@if grep -q '\.package(' Package.swift; then echo "Package.swift must have no dependencies"; exit 1; fi

clean: ## Remove build products
	$(SWIFT) package clean
	rm -rf .build
