import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Regression tests for three faults this suite found in `URLSessionTransport` on Linux (Swift 6.3.1, libcurl
    /// 7.88.1), fixed since. Each states the correct behavior and what was observed before the fix.
    @Suite struct TransportRegressionTests {
        /// F31/L16: a 401 carrying `WWW-Authenticate: Basic` makes Linux URLSession (before 6.3.2) wait forever on its
        /// own challenge handling; the call only ended by the client's time limit (observed before the fix:
        /// timedOut(attempt) after the full limit). It must end at once with the 401, so a behavior can act on it.
        @Test(arguments: ["/basic-auth/ada/right", "/status/401"])
        func basicChallengeEndsWithThe401InsteadOfHanging(path: String) async throws {
            let client = try await HTTPBin.client(behavior: .basicAuthorization(user: "ada", password: "wrong"))
            let start = ContinuousClock.now
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: path, timeout: .seconds(3)))
            }
            #expect(error?.kind == .unacceptableStatus(401))
            #expect(error?.response?.headerFields["WWW-Authenticate"]?.hasPrefix("Basic") == true)
            #expect(ContinuousClock.now - start < .seconds(2))
        }

        /// F10/L7: a POST sent on a pooled connection the server has just closed. Observed before the fix: libcurl
        /// opened a new connection and re-sent the headers (`Content-Length: 12`) without the body, spun a core until
        /// the attempt limit, and the call ended as `timedOut(attempt)`, while the server received an empty POST.
        /// Expected: either the POST arrives whole once, or the call fails fast (well before the limit) having put
        /// nothing truncated on the wire.
        @Test func postOnAConnectionTheServerClosedArrivesWholeOrFailsFast() async throws {
            let key = FaultServer.newKey("pooled-post-bug")
            let client = try await FaultServer.client(
                transport: TestTransport.make(maximumConnectionsPerHost: 1))
            _ = try await client.send(NetworkRequest<Data>(path: "/keepalive-close", query: Faults.query(key)))
            let start = ContinuousClock.now
            var failure: (any Error)?
            do {
                _ = try await client.send(
                    NetworkRequest<FaultEcho>(
                        .post, path: "/echo", query: Faults.query(key), body: .json(["order": 42]), timeout: .seconds(2)
                    ))
            } catch {
                failure = error
            }
            let elapsed = ContinuousClock.now - start
            try await Task.sleep(for: .milliseconds(200))  // real time: let the server record what it got
            let posts = try await FaultServer.hits(key).requests.filter { $0.method == "POST" }
            #expect(posts.count <= 1)
            #expect(posts.allSatisfy { $0.body == #"{"order":42}"# }, "the server got \(posts.map(\.body))")
            if let failure {
                #expect(elapsed < .seconds(1), "failed with \(failure) only after \(elapsed)")
            }
        }

        /// F18: 307 and 308 keep the method *and the body* (RFC 9110 §15.4.8, §15.4.9). Observed before the fix: the
        /// redirected POST arrived with `Content-Length: 0` and an empty body, so the target acted on nothing.
        @Test(arguments: [307, 308])
        func redirect307And308ResendTheBody(status: Int) async throws {
            struct Echo: Decodable, Sendable {
                let method: String
                let body: String
            }
            let key = FaultServer.newKey("redirect-body-\(status)")
            let client = try await FaultServer.client()
            let echo = try await client.send(
                NetworkRequest<Echo>(
                    .post, path: "/redirect-to",
                    query: [
                        URLQueryItem(name: "key", value: key), URLQueryItem(name: "status", value: "\(status)"),
                        URLQueryItem(name: "url", value: "/echo?key=\(key)"),
                    ],
                    body: .json(["order": 42])))
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 2)
            #expect(hits.requests.map(\.method) == ["POST", "POST"])
            #expect(hits.requests.first?.body == #"{"order":42}"#)
            #expect(hits.requests.last?.body == #"{"order":42}"#)
            #expect(echo.body == #"{"order":42}"#)
        }
    }
}
