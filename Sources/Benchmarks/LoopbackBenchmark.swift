import Foundation
import Networking

/// Parts 2 to 4: the raw Foundation baseline against `NetworkClient` with the full chain, on loopback against nginx, in
/// interleaved rounds of the same run; then memory after 1k and 20k client requests.
struct LoopbackBenchmark {
    struct Row {
        let concurrency: Int
        let raw: Double
        let bare: Double
        let client: Double
        var ratio: Double { client / raw }
    }

    struct Result {
        let rows: [Row]
        let roundTripNanoseconds: Double
    }

    let rounds: Int
    let requestsPerRound: Int

    func run(payload: Data) async throws -> Result {
        let server = try NginxServer(payload: payload)
        defer { server.stop() }
        let raw = RawBaseline(url: server.payloadURL)
        let client = NetworkClient(
            baseURL: URL(string: "http://127.0.0.1:\(server.port)"), transport: URLTransportFactory.make(),
            behavior: FullChain.make())
        let bare = NetworkClient(
            baseURL: URL(string: "http://127.0.0.1:\(server.port)"), transport: URLTransportFactory.make())
        let request = NetworkRequest<Data>(path: "/payload.json")
        try await Self.waitUntilServing(raw)
        // Warm-up: connections, code paths, allocator.
        _ = try await Measure.throughput(total: 500, concurrency: 4) { try await raw.get() }
        _ = try await Measure.throughput(total: 500, concurrency: 4) { _ = try await bare.send(request) }
        _ = try await Measure.throughput(total: 500, concurrency: 4) { _ = try await client.send(request) }

        var rows: [Row] = []
        for concurrency in [1, 16] {
            var samples: [[Double]] = [[], [], []]
            let sides: [@Sendable () async throws -> Void] = [
                { try await raw.get() }, { _ = try await bare.send(request) }, { _ = try await client.send(request) },
            ]
            for round in 0..<rounds {
                // Rotate which side goes first so drift on a shared machine hits all of them equally.
                for offset in 0..<sides.count {
                    let side = (round + offset) % sides.count
                    samples[side].append(
                        try await Measure.throughput(total: requestsPerRound, concurrency: concurrency, sides[side]))
                }
            }
            rows.append(
                Row(
                    concurrency: concurrency, raw: Measure.median(samples[0]), bare: Measure.median(samples[1]),
                    client: Measure.median(samples[2])))
        }

        let roundTrip = 1e9 / (rows.first?.raw ?? .nan)
        return Result(rows: rows, roundTripNanoseconds: roundTrip)
    }

    /// Peak resident memory (KiB) of this process after `first` and after `total` requests of one side: `raw`
    /// (Foundation alone), `client` (NetworkClient with the full chain), or `timer` (in memory, through a transport
    /// that keeps no time limit, under the default 60 s timeout). Run in a fresh process per side.
    static func memoryPhase(side: String, first: Int, total: Int) async throws -> (Int, Int) {
        if side == "timer" { return try await ChainBenchmark.timerMemoryPhase(first: first, total: total) }
        let server = try NginxServer(payload: ChainBenchmark.Payload.oneKilobyte)
        defer { server.stop() }
        let raw = RawBaseline(url: server.payloadURL)
        try await waitUntilServing(raw)
        let client = NetworkClient(
            baseURL: URL(string: "http://127.0.0.1:\(server.port)"), transport: URLTransportFactory.make(),
            behavior: FullChain.make())
        let request = NetworkRequest<Data>(path: "/payload.json")
        let useRaw = side == "raw"
        let send: @Sendable () async throws -> Void = {
            if useRaw { try await raw.get() } else { _ = try await client.send(request) }
        }
        _ = try await Measure.throughput(total: first, concurrency: 8, send)
        let afterFirst = Measure.peakResidentKiB()
        _ = try await Measure.throughput(total: total - first, concurrency: 8, send)
        return (afterFirst, Measure.peakResidentKiB())
    }

    private static func waitUntilServing(_ raw: RawBaseline) async throws {
        for _ in 0..<100 {
            if (try? await raw.get()) != nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchmarkError("nginx did not answer within 5 s")
    }
}
