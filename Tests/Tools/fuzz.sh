#!/usr/bin/env bash
# make fuzz: builds the harnesses of Sources/Fuzz with libFuzzer and AddressSanitizer (toolchain only) and runs each
# for SECONDS (default 600), starting from its seed corpus in Tests/Fuzz/Corpus/<harness> (the corpus grown by a run
# stays in .build-fuzz/corpus). One line per harness: executions, coverage, new inputs, peak memory. A crash, a leak
# or a time-out stops the harness, keeps the input in .build-fuzz/crashes/<harness>/ and fails the run; replay it
# with `swift run Fuzz <harness> <file>`, then add it to Tests/Fuzz/Regressions/<harness>/ with the fix: the test
# FuzzCorpusTests runs every corpus and regression file through its harness.
#   Tests/Tools/fuzz.sh [SECONDS] [HARNESS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
# The harness links Linux's Foundation (FoundationNetworking) and libFuzzer, which swift.org's Linux toolchain ships.
if [ "$(uname -s)" != Linux ]; then
    echo "make fuzz: Linux only (the harness links FoundationNetworking and libFuzzer from swift.org's Linux toolchain)" >&2
    exit 1
fi
seconds=${1:-600}
shift || true
swift=${SWIFT:-swift}
build=.build-fuzz
$swift build --target Fuzz --scratch-path $build -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
# SwiftPM links an executable through a main of its module's own; libFuzzer brings its own main, so the objects are
# linked here: the harness module, the library modules and the C shim (no test target, no other executable).
modules="Fuzz Networking NetworkingAuth NetworkingCookies NetworkingCore NetworkingCurl NetworkingFixtures NetworkingHTTP
NetworkingHTTPCache NetworkingModifiers NetworkingObservability NetworkingResilience NetworkingTLS NetworkingTransfers
NetworkingTransports NetworkingURLSession NetworkingWebSocket CCurlShim"
objects=()
for module in $modules; do objects+=("$build"/debug/"$module".build/*.o); done
swiftc -sanitize=fuzzer,address -emit-executable -o $build/fuzz-harness "${objects[@]}" -lFoundationNetworking \
    -lFoundation 2>&1 | grep -v "Cannot export local symbol" || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(head fields set-cookie dates cache-control retry-after events lines charset
    manifest drift url websocket upgrade)
failed=0
for harness in "${harnesses[@]}"; do
    corpus=$build/corpus/$harness
    crashes=$build/crashes/$harness
    mkdir -p "$corpus" "$crashes"
    log=$build/$harness.log
    status=0
    # The Swift runtime's backtracer reads the crashed stack in ways AddressSanitizer reports as overflows: off.
    FUZZ_HARNESS=$harness ASAN_OPTIONS=detect_leaks=1 SWIFT_BACKTRACE=enable=no $build/fuzz-harness -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" "Tests/Fuzz/Corpus/$harness" \
        > "$log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
    features=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
    added=$(grep -o 'stat::new_units_added: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    if [ "$status" -ne 0 ]; then
        failed=1
        echo "fuzz $harness: FAILED after $runs inputs (exit $status): see $log and $crashes"
        grep -E "invariant broken|ERROR: |SUMMARY: " "$log" | head -5 | sed 's/^/    /'
    else
        echo "fuzz $harness: $runs inputs in $seconds s, coverage $coverage edges ($features features), $added new inputs, peak RSS $rss MiB, no crash, leak or time-out"
    fi
done
exit $failed
