// swift-format-ignore-file
import Foundation
import NetworkingTesting
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingTLS
@testable import NetworkingURLSession
@testable import NetworkingAuth
@testable import NetworkingResilience
@testable import NetworkingHTTPCache
@testable import NetworkingCookies
@testable import NetworkingObservability
@testable import NetworkingTransfers
import NetworkingTestSupport

// Metrics.md's metrics example, verbatim: compiled here and checked against README.md below.
func metricsReadmeExample() throws -> NetworkClient {
let client = NetworkClient(
    baseURL: URL(string: "https://api.example.com")!,
    behavior: CombinedBehavior([.metrics { metrics in print(metrics) }, .retry()])
)
// GET /users/42 #1 status(503) wait 0.0 s head 0.021 s total 0.022 s sent 0 B received 57 B
// GET /users/42 #2 status(200) wait 0.318 s head 0.019 s total 0.02 s sent 0 B received 512 B
return client
}

@Suite struct ReadmeMetricsSampleTests {
    @Test func theMetricsExampleIsCompiledHereAndPrintsLinesOfThatShape() async throws {
        let block = try DocumentSamples.swiftBlock(in: "Sources/Networking/Networking.docc/Metrics.md") { $0.contains(".metrics { metrics in print(metrics) }") }
        #expect(DocumentSamples.lines(of: block).count == 6)
        #expect(try DocumentSamples.isCompiled(block, in: #filePath), "Metrics.md's metrics example is not the code compiled here")
        #expect(try metricsReadmeExample().configuration.baseURL?.host == "api.example.com")

        // The same behaviors on a mock: a 503, then a 200; the printed lines have the shape the comments show.
        let lines = LockedBox<[String]>([])
        let count = LockedBox(0)
        let transport = MockTransport { request in
            let attempt = count.withLock { $0 += 1; return $0 }
            return (HTTPResponse(status: attempt == 1 ? 503 : 200, url: request.url), Data(count: attempt == 1 ? 57 : 512))
        }
        let client = try makeClient(
            transport: transport,
            behavior: CombinedBehavior([
                .metrics { metrics in lines.withLock { $0.append("\(metrics)") } }, .retry(clock: TestClock()),
            ]))
        _ = try await client.send(NetworkRequest<Data>(path: "/users/42"))
        let shown = block.split(separator: "\n").filter { $0.hasPrefix("// GET") }.map { String($0.dropFirst(3)) }
        let pattern = { (text: String) in
            text.replacingOccurrences(of: #"[0-9]+\.[0-9]+ s"#, with: "T s", options: .regularExpression)
        }
        #expect(lines.current.map(pattern) == shown.map(pattern))
    }
}
