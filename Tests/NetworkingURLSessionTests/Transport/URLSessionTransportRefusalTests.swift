import Foundation
import Networking
import Testing

@testable import NetworkingURLSession
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `URLSessionTransport` refuses although Foundation would take it, and how it words what Foundation refused.
@Suite struct URLSessionTransportRefusalTests {
    /// Why the transport refuses a response of `status` with `fields` to a request with `method`.
    static func refusal(_ fields: [String: String], status: Int = 200, method: HTTPMethod = .get) -> String? {
        let head = HTTPURLResponse(
            url: URL(string: "http://h.test/")!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)!
        return URLSessionTransportDelegate.refusal(of: head, method: method)
    }

    @Test(arguments: [
        // RFC 9110 §10.1.4: TE is a list of `token [ weight ]`; tokens compare without case.
        ("trailers", true),
        ("Trailers", true),
        ("gzip, trailers", true),
        ("trailers;q=0.5", true),
        (" TRAILERS ", true),
        ("gzip", false),
        ("trailer", false),
        ("trailersx", false),
        ("x-trailers", false),
        ("", false),
        ("tr\u{0430}ilers", false),  // CYRILLIC SMALL LETTER A is not the octet 0x61
    ])
    func aTEValueNamesTrailersOnlyAsAToken(value: String, names: Bool) {
        #expect(URLSessionTransportDelegate.namesTrailers(value) == names)
    }

    @Test func aHeadWithAnUnrecoverableContentLengthIsRefusedOnEveryPlatform() {
        let refusal = Self.refusal(["Content-Length": "10, 4"])
        #expect(refusal == "the response has conflicting Content-Length values (10, 4)")
        #expect(Self.refusal(["Content-Length": "10, 10"]) == nil)
    }

    @Test func announcedTrailersAndRequestsForThemAreRefusedWhereFoundationCannotReadThem() {
        let head = Self.refusal(["Trailer": "X-Checksum"])
        var request = HTTPRequest(method: .get, url: URL(string: "http://h.test/")!)
        request.headerFields.append(HTTPField(name: HTTPField.Name("TE"), value: "trailers"))
        let sent = URLSessionTransportDelegate.refusal(of: request)
        #if canImport(FoundationNetworking)
            // Linux: a trailer line ends the process inside Foundation (Tests/README.md L17).
            #expect(head?.contains("announces trailer fields (Trailer: X-Checksum)") == true)
            #expect(sent?.contains("accepts trailer fields (TE: trailers)") == true)
            #expect(sent?.contains("nothing was sent") == true)
        #else
            #expect(head == nil)
            #expect(sent == nil)
        #endif
        #expect(Self.refusal(["Content-Type": "text/plain"]) == nil)
        // RFC 9110 §6.4.1: no body follows the head of a HEAD, 204 or 304 response, so no trailers either.
        #expect(Self.refusal(["Trailer": "X-Checksum"], method: .head) == nil)
        #expect(Self.refusal(["Trailer": "X-Checksum"], status: 204) == nil)
        #expect(Self.refusal(["Trailer": "X-Checksum"], status: 304) == nil)
        #expect(
            URLSessionTransportDelegate.refusal(of: HTTPRequest(method: .get, url: URL(string: "http://h.test/")!))
                == nil)
    }

    @Test func aHeadFoundationsParserRefusedIsWordedWithTheLinesItCannotRead() throws {
        // Linux: Foundation's header callback aborts the transfer, and libcurl reports it in these words.
        let refused = NSError(
            domain: NSURLErrorDomain, code: NSURLErrorUnknown,
            userInfo: [NSLocalizedDescriptionKey: "Failed writing header"])
        let error = try #require(URLSessionTransportDelegate.classify(refused) as? TransportError)
        #expect(error.code == .other)
        #expect(error.urlErrorCode == -1)
        #expect(error.message.hasPrefix("Failed writing header: "))
        #expect(error.message.contains("a status line without a reason phrase, such as \"HTTP/1.1 200\""))
        let other = NSError(
            domain: NSURLErrorDomain, code: NSURLErrorUnknown,
            userInfo: [NSLocalizedDescriptionKey: "Header without colon"])
        #expect((URLSessionTransportDelegate.classify(other) as? TransportError)?.message == "Header without colon")
    }
}
