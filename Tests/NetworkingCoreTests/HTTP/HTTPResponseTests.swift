import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HTTPResponse` alone: status kinds and phrases, and the conversion from `HTTPURLResponse`.
@Suite struct HTTPResponseTests {
    @Test(arguments: [
        (100, HTTPResponse.Status.Kind.informational), (204, .successful), (308, .redirection), (404, .clientError),
        (503, .serverError), (99, .invalid), (600, .invalid),
    ])
    func theFirstDigitGivesTheKind(code: Int, kind: HTTPResponse.Status.Kind) {
        #expect(HTTPResponse.Status(code: code).kind == kind)
    }

    @Test func knownCodesHaveTheirStandardPhraseAndStatusesCompareByCode() {
        #expect(HTTPResponse.Status.serviceUnavailable.description == "503 Service Unavailable")
        #expect(HTTPResponse.Status(code: 799).description == "799")
        #expect(HTTPResponse.Status(code: 200, reasonPhrase: "Fine") == .ok)
    }

    @Test func anHTTPURLResponseConverts() throws {
        let url = URL(string: "https://api.example.test/v1/items")!
        let legacy = try #require(
            HTTPURLResponse(
                url: url, statusCode: 201, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json", "ETag": "\"v1\""]))
        let response = HTTPResponse(legacy)
        #expect(response.status == .created)
        #expect(response.headerFields[.contentType] == "application/json")
        #expect(response.headerFields[.eTag] == "\"v1\"")
        #expect(response.url == url)
    }
}
