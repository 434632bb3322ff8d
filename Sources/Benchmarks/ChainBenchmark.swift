import Foundation
import Networking

/// Part 1: the cost of the client and its chain, in memory. A transport returns a canned response with no I/O.
struct ChainBenchmark {
    /// One row: nanoseconds per request, median of the rounds.
    struct Row {
        let label: String
        let nanoseconds: Double
    }

    /// A transport that answers every request at once with the same body in memory. It never waits, so it honours
    /// the time limit's interruption trivially: the client runs it as it runs the package's two transports (libcurl
    /// and Foundation), whose transfers the time limit stops itself (no task per attempt).
    struct CannedTransport: InterruptibleTransport {
        let body: Data
        let response: HTTPResponse

        func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
            (response, .data(body))
        }
    }

    /// The same canned answer through a transport the time limit cannot stop itself (as `MockTransport`,
    /// `FixtureTransport` or a transport of your own): the client runs each attempt in a task of its own, which the
    /// limit's timer cancels.
    struct PlainCannedTransport: HTTPTransport {
        let canned: CannedTransport

        func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
            try await canned.send(request)
        }
    }

    /// A payload of about 1 KB for the decoding rows.
    struct Payload: Codable, Sendable {
        struct Item: Codable, Sendable {
            let id: Int
            let name: String
            let tags: [String]
        }
        let items: [Item]

        static var oneKilobyte: Data {
            let items = (0..<19).map { Item(id: $0, name: "country-\($0)", tags: ["a", "bb", "ccc"]) }
            return try! JSONEncoder().encode(Payload(items: items))
        }
    }

    let rounds: Int
    let iterations: Int

    /// Runs one variant (`a`, `b` or `c`) `iterations` times, for a profiler.
    func profile(variant: String) async throws {
        let body = Payload.oneKilobyte
        let url = URL(string: "http://bench.invalid/v1/items")!
        let response = HTTPResponse(status: .ok, url: url)
        let transport = CannedTransport(body: body, response: response)
        let behavior: any RequestBehavior = variant == "c" ? FullChain.make() : EmptyBehavior()
        let client = NetworkClient(
            baseURL: URL(string: "http://bench.invalid/v1"), transport: transport, behavior: behavior)
        let request = NetworkRequest<Data>(path: "/items")
        for _ in 0..<iterations {
            if variant == "a" {
                _ = try await transport.send(HTTPRequest(url: url))
            } else {
                _ = try await client.send(request)
            }
        }
    }

    /// Peak RSS (KiB) after `first` and after `total` calls through a transport that keeps no time limit itself
    /// (as `MockTransport` and `FixtureTransport`), under the client's default 60 s attempt timeout: every call
    /// arms the client's timer, so whatever a timer keeps after its call shows up here.
    static func timerMemoryPhase(first: Int, total: Int) async throws -> (Int, Int) {
        let url = URL(string: "http://bench.invalid/v1/items")!
        let canned = CannedTransport(body: Data("{}".utf8), response: HTTPResponse(status: .ok, url: url))
        let client = NetworkClient(
            baseURL: URL(string: "http://bench.invalid/v1"), transport: PlainCannedTransport(canned: canned))
        let request = NetworkRequest<Data>(path: "/items")
        let send: @Sendable () async throws -> Void = { _ = try await client.send(request) }
        _ = try await Measure.throughput(total: first, concurrency: 8, send)
        let afterFirst = Measure.peakResidentKiB()
        _ = try await Measure.throughput(total: total - first, concurrency: 8, send)
        return (afterFirst, Measure.peakResidentKiB())
    }

    func run() async throws -> (rows: [Row], payloadBytes: Int) {
        let body = Payload.oneKilobyte
        let url = URL(string: "http://bench.invalid/v1/items")!
        let response = HTTPResponse(status: .ok, url: url)
        let transport = CannedTransport(body: body, response: response)
        let empty = NetworkClient(baseURL: URL(string: "http://bench.invalid/v1"), transport: transport)
        let plain = NetworkClient(
            baseURL: URL(string: "http://bench.invalid/v1"), transport: PlainCannedTransport(canned: transport))
        let full = NetworkClient(
            baseURL: URL(string: "http://bench.invalid/v1"), transport: transport, behavior: FullChain.make())
        let raw = HTTPRequest(url: url)
        let dataRequest = NetworkRequest<Data>(path: "/items")
        let decodedRequest = NetworkRequest<Payload>(path: "/items")

        let variants: [(String, () async throws -> Void)] = [
            ("(a) transport directly", { _ = try await transport.send(raw) }),
            ("(b) client, EmptyBehavior", { _ = try await empty.send(dataRequest) }),
            ("(c) client, full chain of six", { _ = try await full.send(dataRequest) }),
            ("(b) EmptyBehavior, plain transport*", { _ = try await plain.send(dataRequest) }),
            (
                "(a) transport + decode 1 KB",
                {
                    let (_, body) = try await transport.send(raw)
                    _ = try JSONDecoder().decode(Payload.self, from: body.data ?? Data())
                }
            ),
            ("(b) client, EmptyBehavior + decode", { _ = try await empty.send(decodedRequest) }),
            ("(c) client, full chain + decode", { _ = try await full.send(decodedRequest) }),
        ]
        var samples = Array(repeating: [Double](), count: variants.count)
        for (index, variant) in variants.enumerated() {
            _ = try await Measure.nanosecondsPerCall(iterations: iterations / 10, variant.1)  // warm-up
            samples[index] = []
        }
        for _ in 0..<rounds {
            for (index, variant) in variants.enumerated() {
                samples[index].append(try await Measure.nanosecondsPerCall(iterations: iterations, variant.1))
            }
        }
        let rows = zip(variants, samples).map { Row(label: $0.0.0, nanoseconds: Measure.median($0.1)) }
        return (rows, body.count)
    }
}
