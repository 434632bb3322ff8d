import Foundation
import Networking
import NetworkingCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Part 6: the libcurl transport on loopback (nginx, 1 KB JSON) against Foundation's raw `data(for:)` and against the
/// engine alone (`curl_easy_perform` in a loop), in interleaved rounds of one run; and the CPU it spends per
/// request at 16 callers.
struct CurlBenchmark {
    struct Result {
        /// Requests per second at 1 and 16 callers: raw Foundation `data(for:)`, the full chain on libcurl.
        let raw: [Int: Double]
        let chain: [Int: Double]
        /// The full chain on libcurl, 1 caller whose task prefers the transport's executor (no thread hand-off).
        let onLoop: Double
        /// The full chain on libcurl, 16 callers each making its calls inside
        /// `withTaskExecutorPreference(transport.executor)`: requests per second, and CPU per request in µs.
        let onLoop16: Double
        let onLoop16CPUMicroseconds: Double
        /// The bare engine loop through a multi handle (as the transport drives libcurl), 1 caller.
        let engine: Double
        /// The same with `curl_easy_perform`, for comparison.
        let easyPerform: Double
        /// User and system CPU per request of the full chain on libcurl at 16 callers, in microseconds.
        let cpuMicroseconds: Double
        /// The bare engine keeping 16 transfers in flight on one multi handle: requests per second, and CPU per
        /// request in microseconds.
        let engine16: Double
        let engine16CPUMicroseconds: Double
    }

    let rounds: Int
    let requestsPerRound: Int

    func run(payload: Data) async throws -> Result {
        let server = try NginxServer(payload: payload)
        defer { server.stop() }
        let raw = RawBaseline(url: server.payloadURL)
        let transport = try CurlTransport()
        let client = NetworkClient(
            baseURL: URL(string: "http://127.0.0.1:\(server.port)"), transport: transport, behavior: FullChain.make())
        let request = NetworkRequest<Data>(path: "/payload.json")
        let url = server.payloadURL.absoluteString
        try await Self.waitUntilServing { try await raw.get() }
        _ = try await Measure.throughput(total: 500, concurrency: 4) { try await raw.get() }
        _ = try await Measure.throughput(total: 500, concurrency: 4) { _ = try await client.send(request) }
        _ = try CurlBareLoop.sequentialGets(url: url, count: 200)
        var rawRates: [Int: [Double]] = [:]
        var chainRates: [Int: [Double]] = [:]
        var onLoop: [Double] = []
        var onLoop16: [Double] = []
        var onLoop16CPU: [Double] = []
        var engine: [Double] = []
        var easyPerform: [Double] = []
        var cpu: [Double] = []
        var engine16: [Double] = []
        var engine16CPU: [Double] = []
        for round in 0..<rounds {
            for concurrency in [1, 16, 64] {
                let chainFirst = round % 2 == 0
                if chainFirst {
                    chainRates[concurrency, default: []].append(try await chain(client, request, concurrency, &cpu))
                }
                rawRates[concurrency, default: []].append(
                    try await Measure.throughput(total: requestsPerRound, concurrency: concurrency) {
                        try await raw.get()
                    })
                if !chainFirst {
                    chainRates[concurrency, default: []].append(try await chain(client, request, concurrency, &cpu))
                }
                // 16 callers on the loop's executor, right after the same 16 on the global executor, or before
                // them in the next round.
                if concurrency == 16, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
                    let before = Self.cpuSeconds()
                    onLoop16.append(
                        try await Measure.throughputPreferring(
                            transport.executor, total: requestsPerRound, concurrency: 16
                        ) { _ = try await client.send(request) })
                    onLoop16CPU.append((Self.cpuSeconds() - before) / Double(requestsPerRound) * 1e6)
                }
            }
            engine.append(try CurlBareLoop.sequentialGets(url: url, count: requestsPerRound))
            let sixteen = try CurlBareLoop.concurrentGets(url: url, count: requestsPerRound, inFlight: 16)
            engine16.append(sixteen.requestsPerSecond)
            engine16CPU.append(sixteen.cpuMicroseconds)
            easyPerform.append(try CurlBareLoop.sequentialGets(url: url, count: requestsPerRound, multi: false))
            // Last in the round: the task goes on running on the loop thread until its next wait.
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
                onLoop.append(
                    try await withTaskExecutorPreference(transport.executor) {
                        try await Measure.throughput(total: requestsPerRound, concurrency: 1) {
                            _ = try await client.send(request)
                        }
                    })
            }
        }
        return Result(
            raw: rawRates.mapValues(Measure.median), chain: chainRates.mapValues(Measure.median),
            onLoop: Measure.median(onLoop), onLoop16: Measure.median(onLoop16),
            onLoop16CPUMicroseconds: Measure.median(onLoop16CPU), engine: Measure.median(engine),
            easyPerform: Measure.median(easyPerform),
            cpuMicroseconds: Measure.median(cpu), engine16: Measure.median(engine16),
            engine16CPUMicroseconds: Measure.median(engine16CPU))
    }

    private func chain(
        _ client: NetworkClient, _ request: NetworkRequest<Data>, _ concurrency: Int, _ cpu: inout [Double]
    ) async throws -> Double {
        let before = Self.cpuSeconds()
        let rate = try await Measure.throughput(total: requestsPerRound, concurrency: concurrency) {
            _ = try await client.send(request)
        }
        if concurrency == 16 { cpu.append((Self.cpuSeconds() - before) / Double(requestsPerRound) * 1e6) }
        return rate
    }

    /// Waits until `probe` succeeds (nginx is up), for at most 5 s.
    static func waitUntilServing(_ probe: () async throws -> Void) async throws {
        for _ in 0..<100 {
            if (try? await probe()) != nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchmarkError("nginx did not answer within 5 s")
    }

    /// User plus system CPU time of this process, in seconds.
    static func cpuSeconds() -> Double {
        Measure.usage().cpu
    }

    static func describe(_ result: Result) -> String {
        func number(_ value: Double?) -> String { String(format: "%.0f", value ?? .nan) }
        return """
            6. The libcurl transport on loopback (nginx, 1 KB JSON): req/s
               callers   raw data(for:)   client + chain on libcurl   engine alone (multi loop; easy_perform)
               1         \(number(result.raw[1]).padding(toLength: 17, withPad: " ", startingAt: 0))\
            \(number(result.chain[1]).padding(toLength: 28, withPad: " ", startingAt: 0))\(number(result.engine)); \(number(result.easyPerform))
               16        \(number(result.raw[16]).padding(toLength: 17, withPad: " ", startingAt: 0))\
            \(number(result.chain[16]).padding(toLength: 28, withPad: " ", startingAt: 0))\(number(result.engine16)) (16 transfers in flight)
               64        \(number(result.raw[64]).padding(toLength: 17, withPad: " ", startingAt: 0))\(number(result.chain[64]))
               1 caller whose task prefers the transport's executor (no thread hand-off): \(number(result.onLoop)) req/s, \
            \(String(format: "%.2f", result.onLoop / result.engine)) of the engine alone (no target)
               16 callers whose tasks prefer the transport's executor: \(number(result.onLoop16)) req/s, \
            \(String(format: "%.2f", result.onLoop16 / (result.chain[16] ?? .nan))) of the same 16 on the global executor, \
            CPU per request \(String(format: "%.1f", result.onLoop16CPUMicroseconds)) µs (no target)
               CPU per request at 16: client + chain on libcurl \(String(format: "%.1f", result.cpuMicroseconds)) µs, \
            engine alone \(String(format: "%.1f", result.engine16CPUMicroseconds)) µs
            """
    }

    static func addTargets(_ result: Result, to summary: inout TargetSummary) {
        // The one-caller ratios (against raw data(for:) and the bare engine) are information since issue 43: one
        // caller's figure is bound by one thread wake-up a call (benchmarks README); the goals are at 16 callers.
        summary.reported("curl-1-caller", (result.chain[1] ?? .nan) / (result.raw[1] ?? .nan), "ratio", reference: 3.0)
        summary.atLeast("curl-16-callers", (result.chain[16] ?? .nan) / (result.raw[16] ?? .nan), "ratio", 8.0)
        summary.reported("curl-vs-engine", (result.chain[1] ?? .nan) / result.engine, "ratio", reference: 0.80)
        summary.atMost("curl-cpu-per-request", result.cpuMicroseconds, "µs", 100, digits: 1)
        summary.atLeast("curl-16-vs-engine", (result.chain[16] ?? .nan) / result.engine16, "ratio", 0.80)
        summary.atMost(
            "curl-cpu-vs-engine", result.cpuMicroseconds / result.engine16CPUMicroseconds, "ratio", 1.5, digits: 2)
        // The same 16 callers on the transport's executor: the caller's choice, information beside the goals.
        summary.reported("curl-16-vs-engine-on-executor", result.onLoop16 / result.engine16, "ratio", reference: 0.80)
        summary.reported(
            "curl-cpu-vs-engine-on-executor", result.onLoop16CPUMicroseconds / result.engine16CPUMicroseconds, "ratio",
            reference: 1.5, atLeast: false, digits: 2)
        summary.atLeast("curl-64-callers", (result.chain[64] ?? .nan) / (result.raw[64] ?? .nan), "ratio", 10.0)
    }
}
