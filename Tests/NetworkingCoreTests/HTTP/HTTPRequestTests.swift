import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HTTPRequest` alone: its target, its checked writes, and the conversions from and to `URLRequest`.
@Suite struct HTTPRequestTests {
    @Test func aURLIsTakenApartIntoTheTargetAsItGoesOnTheWire() throws {
        let request = HTTPRequest(url: URL(string: "https://API.example.test:8443/v1/a%20b?q=1&r=%2F#fragment")!)
        #expect(request.scheme == "https")
        #expect(request.authority == "API.example.test:8443")
        #expect(request.path == "/v1/a%20b?q=1&r=%2F")
        #expect(request.url?.absoluteString == "https://API.example.test:8443/v1/a%20b?q=1&r=%2F")
        #expect(request.invalidReason == nil)
        #expect(request.method == .get)
        #expect(request.body == .empty)
    }

    @Test func anIPv6LiteralKeepsItsBrackets() {
        let request = HTTPRequest(url: URL(string: "http://[::1]:8080/x")!)
        #expect(request.authority == "[::1]:8080")
        #expect(request.url?.port == 8080)
    }

    struct BadWrite: Sendable, CustomStringConvertible {
        let description: String
        let write: @Sendable (inout HTTPRequest) -> Void
        let reason: String
    }

    static let badWrites: [BadWrite] = [
        BadWrite(description: "method with a space", write: { $0.method = "GET /x" }, reason: "method"),
        BadWrite(description: "empty method", write: { $0.method = "" }, reason: "method"),
        BadWrite(description: "file scheme", write: { $0.scheme = "file" }, reason: "scheme \"file\""),
        BadWrite(description: "no scheme", write: { $0.scheme = "" }, reason: "not absolute"),
        BadWrite(description: "empty authority", write: { $0.authority = "" }, reason: "no host"),
        BadWrite(description: "user info", write: { $0.authority = "ada:pw@host" }, reason: "user name or password"),
        BadWrite(description: "space in authority", write: { $0.authority = "a host" }, reason: "host and port"),
        BadWrite(description: "port out of range", write: { $0.authority = "host:70000" }, reason: "1-65535"),
        BadWrite(description: "path without slash", write: { $0.path = "v1/x" }, reason: "does not start with /"),
        BadWrite(description: "CRLF in path", write: { $0.path = "/x\r\nHost: evil" }, reason: "control character"),
        BadWrite(description: "space in path", write: { $0.path = "/a b" }, reason: "percent-encoded"),
        BadWrite(description: "fragment in path", write: { $0.path = "/a#b" }, reason: "fragment"),
        BadWrite(description: "CR in a header", write: { $0.headerFields["X"] = "a\rb" }, reason: "header X"),
        BadWrite(
            description: "user info in a URL", write: { $0.url = URL(string: "https://ada:pw@h.test/")! },
            reason: "user name or password"),
        BadWrite(
            description: "ftp URL", write: { $0.url = URL(string: "ftp://h.test/x")! }, reason: "scheme \"ftp\""),
        BadWrite(description: "nil URL", write: { $0.url = nil }, reason: "nil"),
    ]

    @Test(arguments: badWrites)
    func aBadWriteChangesNothingAndIsRecorded(bad: BadWrite) {
        let original = HTTPRequest(method: .post, url: URL(string: "https://api.example.test/v1/items")!)
        var request = original
        bad.write(&request)
        #expect(request.invalidReason?.contains(bad.reason) == true, "got \(request.invalidReason ?? "nil")")
        #expect(request.method == original.method)
        #expect(request.url == original.url)
    }

    @Test func aURLRequestConvertsWithMethodHeadersAndBody() throws {
        var legacy = URLRequest(url: URL(string: "https://api.example.test/v1/items?page=2")!)
        legacy.httpMethod = "PATCH"
        legacy.setValue("application/json", forHTTPHeaderField: "Content-Type")
        legacy.httpBody = Data(#"{"a":1}"#.utf8)
        let request = HTTPRequest(legacy)
        #expect(request.method == .patch)
        #expect(request.path == "/v1/items?page=2")
        #expect(request.headerFields[.contentType] == "application/json")
        #expect(request.body.data == Data(#"{"a":1}"#.utf8))
        #expect(request.invalidReason == nil)
    }

    @Test func theConversionsRoundTrip() throws {
        var request = HTTPRequest(method: .put, url: URL(string: "https://api.example.test/v1/items/7")!)
        request.headerFields["X-API-Key"] = "k"
        request.headerFields.append(HTTPField(name: "Accept", value: "a"))
        request.headerFields.append(HTTPField(name: "accept", value: "b"))
        request.body = .data(Data("payload".utf8))
        let legacy = try #require(request.urlRequest)
        #expect(legacy.httpMethod == "PUT")
        #expect(legacy.url?.absoluteString == "https://api.example.test/v1/items/7")
        #expect(legacy.allHTTPHeaderFields?["X-API-Key"] == "k", "the name keeps its case")
        #expect(legacy.allHTTPHeaderFields?["Accept"] == "a, b", "repeated fields are joined")
        #expect(legacy.httpBody == Data("payload".utf8))
        let back = HTTPRequest(legacy)
        #expect(back.method == request.method)
        #expect(back.url == request.url)
        #expect(back.headerFields["x-api-key"] == "k")
        #expect(back.headerFields[.accept] == "a, b")
        #expect(back.body == request.body)
    }

    @Test func aURLRequestWithABodyStreamIsRefusedNotSentEmpty() {
        var legacy = URLRequest(url: URL(string: "https://api.example.test/upload")!)
        legacy.httpMethod = "PUT"
        legacy.httpBodyStream = InputStream(data: Data("payload".utf8))
        #expect(HTTPRequest(legacy).invalidReason?.contains("body stream") == true)
    }

    @Test func theDescriptionLeavesTheQueryOut() {
        let request = HTTPRequest(url: URL(string: "https://api.example.test/v1/login?token=secret")!)
        #expect(request.description == "GET https://api.example.test/v1/login")
    }
}
