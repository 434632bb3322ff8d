import Foundation
import Networking

/// `--curl-probe N`: the libcurl transport alone, without the client: N sequential GETs sent to the transport and
/// read to the end, to tell the transport's cost from the client's (a diagnosis aid, no target).
enum CurlProbe {
    static func run(count: Int) async throws {
        let server = try NginxServer(payload: ChainBenchmark.Payload.oneKilobyte)
        defer { server.stop() }
        let transport = try CurlTransport()
        let request = HTTPRequest(url: server.payloadURL)
        for _ in 0..<200 { _ = try? await read(transport, request) }
        let start = ContinuousClock.now
        for _ in 0..<count { _ = try await read(transport, request) }
        let elapsed = (ContinuousClock.now - start).seconds
        print(
            "transport alone, 1 caller: \(Int(Double(count) / elapsed)) req/s, \(elapsed / Double(count) * 1e6) µs each"
        )
        let before = Measure.peakResidentKiB()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10_000 { group.addTask { try await read(transport, request) } }
            for try await _ in group {}
        }
        let growth = Double(Measure.peakResidentKiB() - before) / 10_000
        print("transport alone, 10,000 calls in flight: peak RSS growth \(growth) KiB per call")
    }

    private static func read(_ transport: CurlTransport, _ request: HTTPRequest) async throws -> Int {
        let (_, body) = try await transport.send(request)
        var total = 0
        for try await chunk in body { total += chunk.count }
        return total
    }
}
