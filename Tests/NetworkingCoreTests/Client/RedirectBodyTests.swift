import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// A 3xx that is not followed is the response, body included (RFC 9110 §15.4): the client never drops it. The
/// URLSession transport's Linux limitation is pinned in `FaultRedirectTests`.
@Suite struct RedirectBodyTests {
    @Test(arguments: [300, 301, 302, 303, 307, 308], [true, false])
    func aRedirectThatIsNotFollowedKeepsItsBody(status: Int, withLocation: Bool) async throws {
        let body = #"{"status": 302}"#  // 15 bytes
        var headers: HTTPFields = ["Content-Length": "15", "Content-Type": "application/json"]
        if withLocation { headers[.location] = "/elsewhere" }
        let transport = answering(status, body: body, headers: headers)
        let client = try makeClient(transport: transport)
        var request = NetworkRequest<Data>(path: "/moved")
        request.followsRedirects = false
        request.acceptableStatusCodes = [status]
        let response = try await client.response(for: request)
        #expect(response.statusCode == status)
        #expect(response.body.count == 15 && response.body == Data(body.utf8))
        #expect(transport.requestCount == 1)
        // Not accepted, the 3xx is an error that still carries the body.
        request.acceptableStatusCodes = [200]
        let error = try await expectNetworkError { try await client.send(request) }
        #expect(error?.kind == .unacceptableStatus(status))
        #expect(error?.body == Data(body.utf8))
    }
}
