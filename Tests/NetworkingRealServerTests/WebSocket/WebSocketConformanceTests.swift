import Foundation
import Networking
import NetworkingCurl
import NetworkingTestSupport
import Testing

extension RealServerTests {
    /// Autobahn|Testsuite's client cases of sections 1-7 and 9, re-expressed in `Tests/Servers/websocket_conformance.py`,
    /// run against the client on `CurlTransport`, which echoes every message as Autobahn's test clients do. The server
    /// grades each case as Autobahn does; the per-section counts are the report in `Tests/README.md`.
    @Suite struct WebSocketConformanceTests {
        /// The sections, with Autobahn's names.
        static let sections: [(String, String)] = [
            ("1", "Framing"), ("2", "Pings/Pongs"), ("3", "Reserved Bits"), ("4", "Opcodes"), ("5", "Fragmentation"),
            ("6", "UTF-8 Handling"), ("7", "Close Handling"), ("9", "Limits/Performance"),
        ]

        /// Runs one case: connects to it, echoes every message until the connection ends, and reads the grade.
        static func run(_ id: String, client: NetworkClient) async throws -> WebSocketConformanceServer.Result {
            var request = WebSocketRequest(path: "/runCase", query: [URLQueryItem(name: "case", value: id)])
            // Section 9 sends messages of up to 16 MiB; the default limit is 1 MiB.
            if id.hasPrefix("9.") { request.maximumMessageSize = 16 * 1024 * 1024 }
            let socket = try await client.webSocket(request)
            do {
                for try await message in socket.messages { try? await socket.send(message) }
            } catch {
                // A case that fails the connection ends the messages with the failure: the grade says if it should.
            }
            return try await WebSocketConformanceServer.result(id)
        }

        @Test(arguments: sections.map(\.0))
        func everyCaseOfTheSectionPassesOrIsNonStrictOrInformationalAsAutobahnGradesIt(section: String) async throws {
            let cases = try await WebSocketConformanceServer.cases().filter { $0.section == section }
            try #require(!cases.isEmpty)
            let client = NetworkClient(
                baseURL: try await WebSocketConformanceServer.url(), transport: TestTransport.make())
            if RealServerTests.webSocketsAreRefused {
                // URLSessionTransport on Linux: the refusal, for the section's first case, is what there is to see.
                let error = try await expectNetworkError { try await Self.run(cases[0].id, client: client) }
                #expect(error?.webSocketError?.kind == .unsupportedTransport)
                return
            }
            var counts: [String: Int] = [:]
            let start = ContinuousClock.now
            for testCase in cases {
                let result = try await Self.run(testCase.id, client: client)
                let grade =
                    result.behaviorClose == "OK" || result.behavior == "INFORMATIONAL" ? result.behavior : "FAILED"
                counts[grade, default: 0] += 1
                #expect(
                    ["OK", "NON-STRICT", "INFORMATIONAL"].contains(grade),
                    "case \(testCase.id) (\(testCase.description)): \(result.behavior) / \(result.behaviorClose): \(result.result); \(result.resultClose)"
                )
                // Stricter than Autobahn: the client always closes with a close frame of its own.
                #expect(result.clientSentClose, "case \(testCase.id): the client sent no close frame")
            }
            let name = Self.sections.first { $0.0 == section }?.1 ?? ""
            print(
                "WebSocket conformance, section \(section) (\(name)): \(counts["OK", default: 0]) OK, "
                    + "\(counts["NON-STRICT", default: 0]) NON-STRICT, \(counts["INFORMATIONAL", default: 0]) "
                    + "INFORMATIONAL, \(counts["FAILED", default: 0]) FAILED of \(cases.count) in "
                    + "\(ContinuousClock.now - start)")
        }
    }
}
