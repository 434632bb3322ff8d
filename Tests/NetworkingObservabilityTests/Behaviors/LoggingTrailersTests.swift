import Foundation
import NetworkingTesting
import Testing

@testable import Networking
@testable import NetworkingHTTP
@testable import NetworkingCore
@testable import NetworkingObservability
import NetworkingTestSupport

/// Trailer fields in the logging behavior's lines: shown with the headers, redacted as header fields are.
@Suite struct LoggingTrailersTests {
    @Test func trailerFieldsOfTheRequestAndTheResponseAreLoggedWithTheHeadersAndRedacted() async throws {
        let sink = RecordingSink()
        let behavior = LoggingBehavior(
            sink: sink.sink, redaction: Redaction(headerNames: ["X-Secret"]), headers: true, clock: TestClock())
        var body = HTTPBody.data(Data("x".utf8))
        body.trailerFields = ["X-Checksum": "1", "Authorization": "Bearer t0p"]
        let request = HTTPRequest(method: .put, url: URL(string: "https://api.example.test/v1/up")!, body: body)
        _ = try await behavior.intercept(request, context: RequestContext()) { request in
            var (response, answer) = BehaviorFakes.response(to: request, body: Data("ok".utf8))
            answer.trailerFields = ["X-Count": "2", "X-Secret": "s3cr3t"]
            return (response, answer)
        }
        let lines = sink.lines
        #expect(lines.first?.contains(#"trailers: Authorization="<redacted>", X-Checksum="1""#) == true, "\(lines)")
        #expect(lines.last?.contains(#"trailers: X-Count="2", X-Secret="<redacted>""#) == true, "\(lines)")
        #expect(!lines.joined().contains("s3cr3t") && !lines.joined().contains("t0p"))
    }

    @Test func aStreamsTrailerFieldsAreInItsEndLine() async throws {
        let sink = RecordingSink()
        let behavior = LoggingBehavior(
            sink: sink.sink, redaction: Redaction(headerNames: ["X-Secret"]), headers: true, clock: TestClock())
        let request = HTTPRequest(url: URL(string: "https://api.example.test/v1/stream")!)
        let (_, body) = try await behavior.intercept(request, context: RequestContext()) { request in
            (BehaviorFakes.response(to: request).0, .complete([Data("a".utf8)], trailerFields: ["X-Secret": "s3cr3t"]))
        }
        _ = try await body.collect(upTo: 10)
        #expect(await eventually { sink.lines.count == 3 })
        #expect(sink.lines.last?.contains(#"stream finished"#) == true)
        #expect(sink.lines.last?.contains(#"trailers: X-Secret="<redacted>""#) == true, "\(sink.lines)")
    }
}
