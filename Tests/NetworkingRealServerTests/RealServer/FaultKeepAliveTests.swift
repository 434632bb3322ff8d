import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Pooled connections the server drops (Tests/README.md F10, F11, F33). One connection per host forces every call
    /// onto the connection the server is about to close.
    @Suite struct FaultKeepAliveTests {
        private func singleConnectionClient(behavior: any RequestBehavior = EmptyBehavior()) async throws
            -> NetworkClient
        {
            try await FaultServer.client(
                transport: TestTransport.make(maximumConnectionsPerHost: 1), behavior: behavior)
        }

        @Test func postOnAConnectionTheServerIsClosingIsNeverSentTwice() async throws {
            // F10: /keepalive-close answers with keep-alive, then drops the socket 50 ms later; the POST goes out on
            // that pooled socket at once. libcurl re-sends a GET on a dead reused connection by itself, and the curl
            // tool even a POST; the client may fail the POST (its outcome is unknown) but must never duplicate it.
            // (How it fails today is in TransportBugTests.)
            let client = try await singleConnectionClient(behavior: .retry(.default, clock: TestClock()))
            var outcomes: [String] = []
            for round in 0..<3 {
                let key = FaultServer.newKey("pooled-post-\(round)")
                _ = try await client.send(NetworkRequest<Data>(path: "/keepalive-close", query: Faults.query(key)))
                do {
                    let echo = try await client.send(
                        NetworkRequest<FaultEcho>(
                            .post, path: "/echo", query: Faults.query(key), body: .json(["round": round]),
                            timeout: .seconds(1)))
                    #expect(echo.method == "POST")
                    outcomes.append("ok")
                } catch let error as NetworkError {
                    outcomes.append("\(error.kind)")
                }
                let hits = try await FaultServer.hits(key)
                let posts = hits.requests.filter { $0.method == "POST" }
                #expect(posts.count <= 1, "round \(round): the POST reached the server \(posts.count) times")
                if outcomes.last == "ok" { #expect(posts.count == 1) }
                #expect(hits.requests.filter { $0.method == "GET" }.count == 1)
            }
            #expect(outcomes.count == 3, "outcomes: \(outcomes)")
        }

        @Test func getOnAConnectionTheServerIsClosingSucceedsOnce() async throws {
            // libcurl sends the GET again on a new connection by itself, so the server sees it once. Apple's loader
            // may fail it instead (no retry behavior here): at least the echo or a transport error there (a GET the
            // server saw twice is no fault: it is idempotent).
            let client = try await singleConnectionClient()
            for round in 0..<5 {
                let key = FaultServer.newKey("pooled-get-\(round)")
                _ = try await client.send(NetworkRequest<Data>(path: "/keepalive-close", query: Faults.query(key)))
                let echo = try await outcome {
                    try await client.send(
                        NetworkRequest<FaultEcho>(path: "/echo", query: Faults.query(key), timeout: .seconds(3)))
                }
                #expect(
                    TestEngine.onLibcurl(
                        echo.value?.method == "GET",
                        elseAtLeast: echo.value?.method == "GET" || Faults.transportCode(echo.error) != nil),
                    "round \(round): \(String(describing: echo))")
                let paths = try await FaultServer.hits(key).requests.map(\.path)
                #expect(
                    TestEngine.onLibcurl(
                        paths == ["/keepalive-close", "/echo"],
                        elseAtLeast: paths.first == "/keepalive-close" && (echo.value == nil || paths.contains("/echo"))
                    ),
                    "round \(round): \(paths)")
            }
        }

        @Test func idleConnectionClosedByTheServerIsReplacedSilently() async throws {
            // F11: the server closed the pooled connection a while ago; the next call must open a new one.
            let client = try await singleConnectionClient()
            let key = FaultServer.newKey("idle-close")
            _ = try await client.send(NetworkRequest<Data>(path: "/keepalive-close", query: Faults.query(key)))
            try await Task.sleep(for: .milliseconds(300))  // real time: the server's close must have happened
            let echo = try await client.send(
                NetworkRequest<FaultEcho>(.post, path: "/echo", query: Faults.query(key), body: .json(["n": 1])))
            #expect(echo.body == #"{"n":1}"#)
            #expect(try await FaultServer.hits(key).count == 2)
        }

        @Test func closeAndKeepAliveAlternatingNeverFail() async throws {
            // F33: EOF-framed `Connection: close` answers between keep-alive ones, on one connection slot.
            let client = try await singleConnectionClient()
            let key = FaultServer.newKey("alternating")
            for index in 0..<20 {
                if index.isMultiple(of: 2) {
                    let text = try await client.send(
                        NetworkRequest<String>(path: "/no-length-close", query: Faults.query(key)))
                    #expect(text == "body framed by connection close")
                } else {
                    let body = try await client.send(
                        NetworkRequest<[String: Bool]>(path: "/ok", query: Faults.query(key)))
                    #expect(body == ["ok": true])
                }
            }
            #expect(try await FaultServer.hits(key).count == 20)
        }
    }
}
