import Foundation
import Networking
import NetworkingCurl

/// `--curl-probe N [PART...]`: where a call on libcurl spends its time, one caller, N sequential GETs each (a
/// diagnosis aid, no target). Parts: `transport` (the transport alone, no client), `engine` (the bare multi loop),
/// `client` (no behaviors), `chain` (the full chain of six), `chain-on-loop` (the same, the caller's task preferring
/// the transport's executor), `chain16` (the full chain, 16 callers), `transport16` (the transport alone, 16 callers), `engine16` (the bare
/// multi loop, 16 transfers), `inflight` (10,000 calls at once on the
/// transport alone); all but `chain-on-loop` and `chain16` when none is named. Each line gives the wall time and
/// the process's CPU per call.
enum CurlProbe {
    static func run(count: Int, parts requested: [String]) async throws {
        let parts = Set(requested.isEmpty ? ["transport", "engine", "client", "chain", "inflight"] : requested)
        let server = try NginxServer(payload: ChainBenchmark.Payload.oneKilobyte)
        defer { server.stop() }
        let transport = try CurlTransport()
        let request = HTTPRequest(url: server.payloadURL)
        try await CurlBenchmark.waitUntilServing { _ = try await read(transport, request) }
        if parts.contains("transport") {
            for _ in 0..<200 { _ = try? await read(transport, request) }
            try await time("transport alone", count) { _ = try await read(transport, request) }
        }
        if parts.contains("engine") {
            _ = try CurlBareLoop.sequentialGets(url: server.payloadURL.absoluteString, count: 200)
            try await time("engine alone (multi loop)", count) {
                _ = try CurlBareLoop.sequentialGets(url: server.payloadURL.absoluteString, count: count)
            }
        }
        let baseURL = URL(string: "http://127.0.0.1:\(server.port)")
        for (part, behavior) in [("client", CombinedBehavior([])), ("chain", FullChain.make())]
        where parts.contains(part) {
            let client = NetworkClient(baseURL: baseURL, transport: transport, behavior: behavior)
            let call = NetworkRequest<Data>(path: "/payload.json")
            for _ in 0..<200 { _ = try await client.send(call) }
            let name = part == "client" ? "client, no behaviors" : "client, full chain"
            try await time(name, count) { _ = try await client.send(call) }
        }
        if parts.contains("chain-on-loop"), #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
            let client = NetworkClient(baseURL: baseURL, transport: transport, behavior: FullChain.make())
            let call = NetworkRequest<Data>(path: "/payload.json")
            try await withTaskExecutorPreference(transport.executor) {
                for _ in 0..<200 { _ = try await client.send(call) }
                try await time("client, full chain, on the loop's executor", count) { _ = try await client.send(call) }
            }
        }
        if parts.contains("chain16") {
            let client = NetworkClient(baseURL: baseURL, transport: transport, behavior: FullChain.make())
            let call = NetworkRequest<Data>(path: "/payload.json")
            _ = try await Measure.throughput(total: 5_000, concurrency: 16) { _ = try await client.send(call) }
            let cpu = CurlBenchmark.cpuSeconds()
            let rate = try await Measure.throughput(total: count, concurrency: 16) { _ = try await client.send(call) }
            let cpuPerCall = (CurlBenchmark.cpuSeconds() - cpu) / Double(count) * 1e6
            print(String(format: "client, full chain, 16 callers: %.0f req/s, CPU %.1f µs each", rate, cpuPerCall))
        }
        if parts.contains("transport16") {
            _ = try await Measure.throughput(total: 5_000, concurrency: 16) { _ = try await read(transport, request) }
            let cpu = CurlBenchmark.cpuSeconds()
            let rate = try await Measure.throughput(total: count, concurrency: 16) {
                _ = try await read(transport, request)
            }
            let cpuPerCall = (CurlBenchmark.cpuSeconds() - cpu) / Double(count) * 1e6
            print(String(format: "transport alone, 16 callers: %.0f req/s, CPU %.1f µs each", rate, cpuPerCall))
        }
        if parts.contains("engine16") {
            let url = server.payloadURL.absoluteString
            _ = try CurlBareLoop.concurrentGets(url: url, count: 5_000, inFlight: 16)
            let (rate, cpuPerCall) = try CurlBareLoop.concurrentGets(url: url, count: count, inFlight: 16)
            print(String(format: "engine alone, 16 transfers: %.0f req/s, CPU %.1f µs each", rate, cpuPerCall))
        }
        if parts.contains("inflight") {
            let before = Measure.peakResidentKiB()
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10_000 { group.addTask { try await read(transport, request) } }
                for try await _ in group {}
            }
            let growth = Double(Measure.peakResidentKiB() - before) / 10_000
            print("transport alone, 10,000 calls in flight: peak RSS growth \(growth) KiB per call")
        }
    }

    /// Runs `body` `count` times (once when it runs the whole count itself) and prints the rate and CPU per call.
    private static func time(_ name: String, _ count: Int, _ body: () async throws -> Void) async throws {
        let repeats = name.hasPrefix("engine") ? 1 : count
        let cpu = CurlBenchmark.cpuSeconds()
        let start = ContinuousClock.now
        for _ in 0..<repeats { try await body() }
        let seconds = (ContinuousClock.now - start).seconds
        let cpuPerCall = (CurlBenchmark.cpuSeconds() - cpu) / Double(count) * 1e6
        print(
            String(
                format: "%@, 1 caller: %.0f req/s, %.1f µs each, CPU %.1f µs each", name, Double(count) / seconds,
                seconds / Double(count) * 1e6, cpuPerCall))
    }

    private static func read(_ transport: CurlTransport, _ request: HTTPRequest) async throws -> Int {
        let (_, body) = try await transport.send(request)
        var total = 0
        for try await chunk in body { total += chunk.count }
        return total
    }
}
