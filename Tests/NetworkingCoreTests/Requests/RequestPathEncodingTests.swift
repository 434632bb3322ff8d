import Foundation
import Networking
import NetworkingTesting
import NetworkingTestSupport
import Testing

/// Two layers, two rules, each row with its section. `NetworkRequest(path:)` takes the app's text and produces the
/// URI from it, percent-encoding what a path cannot carry raw (RFC 3986 §2.1: "when the URI is being produced from
/// its component parts"; §3.3: a path's characters are unreserved, sub-delims, `:`, `@` and `%XX`), as
/// `URLComponents.path` does, and keeps an `%XX` it was given (a path already encoded is sent as it is). An
/// `HTTPRequest.path` is the request-target itself (RFC 9112 §3.2), as a behavior writes it: a raw space there would
/// end the request line, so the write is refused and the call fails with `invalidRequest` before any I/O.
@Suite struct RequestPathEncodingTests {
    @Test(arguments: [
        ("/files/Q3 report.pdf", "/v1/files/Q3%20report.pdf"),  // §2.1, §3.3: SP is not a path character
        ("/files/Q3%20report.pdf", "/v1/files/Q3%20report.pdf"),  // §2.4: an escape given is not encoded again
        ("/cities/Zürich", "/v1/cities/Z%C3%BCrich"),  // §2.5: UTF-8 octets, each percent-encoded
        ("/quote/\"a\"<b>", "/v1/quote/%22a%22%3Cb%3E"),  // §2.1: `"`, `<`, `>` are not path characters
        ("/discount/100%", "/v1/discount/100%25"),  // §2.4: a `%` that starts no escape is data, sent as %25
        ("/a:b@c/d;e=f,g+h", "/v1/a:b@c/d;e=f,g+h"),  // §3.3: `:`, `@` and sub-delims stay as they are
        ("/search?q=a b", "/v1/search?q=a%20b"),  // §3.4: the same rule for a query written in the path
    ])
    func aRequestsPathIsTextTheClientPercentEncodes(path: String, sent: String) async throws {
        let mock = MockTransport { request in (HTTPResponse(status: .ok, url: request.url), Data()) }
        let client = NetworkClient(baseURL: URL(string: "https://api.example.com/v1")!, transport: mock)
        _ = try await client.send(NetworkRequest<Data>(path: path))
        #expect(mock.requests.first?.path == sent)
    }

    @Test func aBehaviorWritingASpaceIntoTheRequestTargetIsRefusedBeforeAnyIO() async throws {
        let mock = MockTransport { request in (HTTPResponse(status: .ok, url: request.url), Data()) }
        let client = NetworkClient(
            baseURL: URL(string: "https://api.example.com/v1")!, transport: mock,
            behavior: .modifyRequest { request in request.path = "/v1/files/Q3 report.pdf" })
        let error = try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/files")) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("percent-encoded") == true)
        #expect(mock.requestCount == 0)
    }
}
