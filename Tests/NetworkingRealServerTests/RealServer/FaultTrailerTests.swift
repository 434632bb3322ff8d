import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// A chunked body followed by trailer fields (Tests/README.md F37, L17): FoundationNetworking on Linux stops the
    /// process on it (`fatalError("Transfer completed, but there's no response.")`). On Linux the URLSession cases
    /// run in a child process (an exit test), so that what stops the process cannot stop the test run.
    @Suite struct FaultTrailerTests {
        /// How `/with-trailers` sends its trailer section.
        enum Route: String, CaseIterable, Codable, Sendable {
            /// Named in a `Trailer` field, and sent a second after the body: the transport refuses the head first.
            case announcedLate
            /// Named in a `Trailer` field, sent in the same write as the body.
            case announcedAtOnce
            /// Not announced, sent with the body: what the server did.
            case unannounced

            func query(_ key: String) -> [URLQueryItem] {
                switch self {
                case .announcedLate: Faults.query(key, ["announce": "1", "late_ms": "1000"])
                case .announcedAtOnce: Faults.query(key, ["announce": "1"])
                case .unannounced: Faults.query(key)
                }
            }

            /// Whether FoundationNetworking on Linux still stops the process: the trailers arrive in the same read
            /// as the body's end, and Foundation's queue reaches its `fatalError` before any delegate call can run.
            var stopsFoundation: Bool { self != .announcedLate }
        }

        /// Reads `/with-trailers` on `transport` and says what happened, in one line.
        static func outcome(of route: Route, key: String, base: URL, transport: any HTTPTransport) async -> String {
            do {
                let client = try loopbackClient(
                    base, transport: transport, behavior: EmptyBehavior(), timeout: .seconds(10))
                let response = try await client.response(
                    for: NetworkRequest<Data>(path: "/with-trailers", query: route.query(key)))
                return
                    "status \(response.response.status.code), body \(String(decoding: response.value, as: UTF8.self))"
            } catch {
                return "error \(error)"
            }
        }

        /// Polls the server on `transport` until it has sent `key`'s trailer section (10 s at most).
        static func waitUntilTrailersAreSent(key: String, base: URL, transport: any HTTPTransport) async -> String {
            let deadline = ContinuousClock.now + .seconds(10)
            do {
                let client = try loopbackClient(
                    base, transport: transport, behavior: EmptyBehavior(), timeout: .seconds(5))
                let poll = NetworkRequest<FaultServer.Hits>(
                    path: "/__hits", query: [URLQueryItem(name: "key", value: key + "/trailers-sent")])
                while try await client.send(poll).count == 0 {
                    guard ContinuousClock.now < deadline else { return "the trailers were never sent" }
                    try await Task.sleep(for: .milliseconds(10))
                }
                return "the trailers were sent"
            } catch {
                return "the server could not be asked: \(error)"
            }
        }

        /// Whether this run can read `/with-trailers` without stopping: not on `URLSessionTransport` over Linux's
        /// Foundation with a Swift before 6.2, which has no exit tests to hold the call in a child process.
        static var readable: Bool {
            #if canImport(FoundationNetworking) && !compiler(>=6.2)
                TestTransport.current != .urlSession
            #else
                true
            #endif
        }

        @Test(
            .enabled(
                if: readable,
                "Linux's Foundation stops the process on trailers, and Swift 6.0 and 6.1 have no exit tests"),
            arguments: Route.allCases)
        func aResponseWithTrailersEndsTheCallClearlyWhereTheTransportCanRead(route: Route) async throws {
            let key = FaultServer.newKey("trailers")
            let base = try await FaultServer.url()
            #if canImport(FoundationNetworking)
                let urlSessionOnLinux = TestTransport.current == .urlSession
            #else
                let urlSessionOnLinux = false
            #endif
            guard urlSessionOnLinux else {
                // libcurl reads past the trailer section (and Apple's URLSession reads trailers): the body, whole.
                let outcome = await Self.outcome(of: route, key: key, base: base, transport: TestTransport.make())
                #expect(outcome == "status 200, body hello trailers")
                #expect(try await FaultServer.hits(key).count == 1)
                return
            }
            // Exit tests: Swift 6.2 and later (`readable` disables the test before).
            #if canImport(FoundationNetworking) && compiler(>=6.2)
                let result = await #expect(
                    processExitsWith: route.stopsFoundation ? .failure : .success,
                    observing: [\.standardOutputContent, \.standardErrorContent]
                ) { [route, key = key as String, base = base as URL] in
                    let transport = URLSessionTransport()
                    let outcome = await Self.outcome(of: route, key: key, base: base, transport: transport)
                    print(outcome)
                    // The call may end before the trailers arrive (refused at the head): the process must outlive
                    // them. Calls on the same session after the server sent them let Foundation read them first.
                    print(await Self.waitUntilTrailersAreSent(key: key, base: base, transport: transport))
                }
                let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
                let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                if route.stopsFoundation {
                    // The limit (L17): when this fails, Foundation changed; update L17, README.md and
                    // Tests/Upstream/swift-corelibs-foundation-trailers.md.
                    #expect(errors.contains("Transfer completed, but there's no response."), "\(errors.suffix(2000))")
                } else {
                    // The head named the trailers: refused at once, the task cancelled before they came.
                    #expect(
                        output.contains("error NetworkError.transport(other) for GET /with-trailers"), "\(output)")
                    #expect(output.contains("announces trailer fields (Trailer: X-Checksum, X-Record-Count, X-Note)"))
                    #expect(output.contains("the trailers were sent"), "\(output)")
                }
                #expect(try await FaultServer.hits(key).count == 1)
            #endif
        }

        @Test func aRequestThatAcceptsTrailersIsRefusedBeforeSendingWhereTheyWouldStopTheProcess() async throws {
            // RFC 9110 §10.1.4: `TE: trailers` invites them; a server that honours it would stop a Linux app.
            let key = FaultServer.newKey("te-trailers")
            let client = try await FaultServer.client()
            let request = NetworkRequest<Data>(
                path: "/ok", query: Faults.query(key), headers: ["TE": "trailers"], timeout: .seconds(5))
            #if canImport(FoundationNetworking)
                if TestTransport.current == .urlSession {
                    let error = try await expectNetworkError { try await client.send(request) }
                    // every engine: the transport's own refusal, before anything is sent.
                    #expect(error?.kind == .transport(.other))
                    #expect(error?.message.contains("accepts trailer fields (TE: trailers)") == true)
                    #expect(error?.message.contains("nothing was sent") == true)
                    #expect(try await FaultServer.hits(key).count == 0)
                    return
                }
            #endif
            _ = try await client.send(request)
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 1)
            #expect(hits.requests.first?.headers["te"] == "trailers")
        }
    }
}
