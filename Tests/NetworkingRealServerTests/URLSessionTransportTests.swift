import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// The URLSession transport against a real loopback server; every test checks what the server saw. Nested in
    /// the serialized `RealServerTests`, so its timing assertions never compete with the stress tests.
    @Suite struct URLSessionTransportTests {
        typealias Echo = FaultEcho

        @Test func getRoundTrip() async throws {
            let key = FaultServer.newKey("get")
            let client = try await FaultServer.client()
            let echo = try await client.send(
                NetworkRequest<Echo>(
                    path: "/echo",
                    query: [URLQueryItem(name: "key", value: key), URLQueryItem(name: "q", value: "a b+c")]))
            #expect(echo.method == "GET")
            #expect(echo.query["q"] == "a b+c")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func postRoundTripSendsTheJSONBodyOnce() async throws {
            struct NewUser: Codable, Sendable, Equatable { let name: String }
            let key = FaultServer.newKey("post")
            let client = try await FaultServer.client()
            let echo = try await client.send(
                NetworkRequest<Echo>(
                    .post, path: "/echo", query: [URLQueryItem(name: "key", value: key)],
                    body: .json(NewUser(name: "Ada")))
            )
            #expect(echo.method == "POST")
            #expect(try JSONDecoder().decode(NewUser.self, from: Data(echo.body.utf8)) == NewUser(name: "Ada"))
            #expect(echo.headers["content-type"] == "application/json")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func crossOriginRedirectStripsCredentials() async throws {
            let key = FaultServer.newKey("xorigin")
            let client = try await FaultServer.client()
            let credentials = [
                "Authorization": "Bearer secret", "Cookie": "session=1", "Proxy-Authorization": "Basic eA==",
                "X-Other": "kept",
            ]
            let response = try await client.response(
                for: NetworkRequest<Echo>(
                    path: "/cross-origin", query: [URLQueryItem(name: "key", value: key)],
                    headers: HTTPFields(credentials)))
            #expect(response.response.url?.host == (try await FaultServer.otherHost()))
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 2)
            let first = try #require(hits.requests.first)
            let second = try #require(hits.requests.last)
            #expect(first.headers["authorization"] == "Bearer secret")
            for name in ["authorization", "cookie", "proxy-authorization"] {
                #expect(second.headers[name] == nil, "\(name) leaked to the other origin")
            }
            #expect(second.headers["x-other"] == "kept")
        }

        @Test func sameOriginRedirectKeepsCredentials() async throws {
            let key = FaultServer.newKey("sameorigin")
            let client = try await FaultServer.client()
            _ = try await client.send(
                NetworkRequest<Data>(
                    path: "/redirect/2", query: [URLQueryItem(name: "key", value: key)],
                    headers: ["Authorization": "Bearer s"]))
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 3)
            #expect(hits.requests.allSatisfy { $0.headers["authorization"] == "Bearer s" })
        }

        @Test func redirectLoopIsATypedErrorAfterTheRedirectLimit() async throws {
            let key = FaultServer.newKey("loop")
            let client = try await FaultServer.client(
                configure: { $0.maximumRedirects = 5 })
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(path: "/redirect-loop", query: [URLQueryItem(name: "key", value: key)]))
            }
            #expect(error?.kind == .transport(.tooManyRedirects))
            #expect(try await FaultServer.hits(key).count == 6)
        }

        @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "javascript:alert(1)"])
        func redirectToANonHTTPSchemeIsRefused(target: String) async throws {
            let key = FaultServer.newKey("scheme")
            let client = try await FaultServer.client()
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/redirect-to",
                        query: [URLQueryItem(name: "key", value: key), URLQueryItem(name: "url", value: target)]))
            }
            #expect(error?.kind == .transport(.redirectRefused))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func subSecondTimeoutFiresWithinOneSecond() async throws {
            let key = FaultServer.newKey("timeout")
            let client = try await FaultServer.client()
            let start = ContinuousClock.now
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/delay-ms/3000", query: [URLQueryItem(name: "key", value: key)],
                        timeout: .milliseconds(300))
                )
            }
            let elapsed = ContinuousClock.now - start
            #expect(error?.kind == .timedOut(.attempt))
            #expect(elapsed >= .milliseconds(300))
            #expect(elapsed < .seconds(1), "took \(elapsed)")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func cancellingTwoHundredInFlightCallsGivesTwoHundredCancellations() async throws {
            let key = FaultServer.newKey("cancel")
            let client = try await FaultServer.client(transport: URLSessionTransport())
            let request = NetworkRequest<Data>(path: "/delay-ms/10000", query: [URLQueryItem(name: "key", value: key)])
            let calls = (0..<200).map { _ in Task { try await client.send(request) } }
            // Wait until the server holds as many calls as the transport lets through at once (6 per host).
            while try await FaultServer.hits(key).count < 6 { await Task.yield() }
            let start = ContinuousClock.now
            for call in calls { call.cancel() }
            var cancelled = 0
            for call in calls {
                if case .failure(let error) = await call.result, error is CancellationError { cancelled += 1 }
            }
            #expect(cancelled == 200)
            #expect(ContinuousClock.now - start < .seconds(5), "cancellation took \(ContinuousClock.now - start)")
        }

        @Test func bodyOverTheLimitFailsFromContentLength() async throws {
            let key = FaultServer.newKey("big")
            let client = try await FaultServer.client(
                configure: { $0.maximumResponseBodySize = 1000 })
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(path: "/bytes/5000", query: [URLQueryItem(name: "key", value: key)]))
            }
            #expect(error?.kind == .transport(.responseTooLarge))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func headOfAResourceLargerThanTheLimitSucceeds() async throws {
            // A HEAD answer announces the resource's size and carries no body: the limit is about bodies.
            let key = FaultServer.newKey("head-large")
            let client = try await FaultServer.client(
                configure: { $0.maximumResponseBodySize = 1 << 20 })
            let response = try await client.response(
                for: NetworkRequest<Void>(.head, path: "/bytes/2000000", query: [URLQueryItem(name: "key", value: key)])
            )
            #expect(response.statusCode == 200)
            #expect(response.response.headerFields["Content-Length"] == "2000000")
            #expect(response.body.isEmpty)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test(arguments: [204, 304])
        func bodilessStatusAnnouncingALargeLengthSucceeds(status: Int) async throws {
            let key = FaultServer.newKey("bodiless-\(status)")
            let client = try await FaultServer.client(
                configure: { $0.maximumResponseBodySize = 1 << 20 })
            var request = NetworkRequest<Void>(
                path: "/announce",
                query: [
                    URLQueryItem(name: "key", value: key), URLQueryItem(name: "status", value: "\(status)"),
                    URLQueryItem(name: "length", value: "2000000"),
                ])
            request.acceptableStatusCodes = [status]
            let response = try await client.response(for: request)
            #expect(response.statusCode == status)
            #expect(response.body.isEmpty)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        /// The server sends for 3 s at most (gigabytes on loopback). On Linux, FoundationNetworking keeps reading a
        /// cancelled body that streams at full speed until the server stops, and meanwhile another session's new
        /// request can wait unsent (seen: 30 s, the server's default, with 0 hits for the waiting request). That is
        /// FoundationNetworking's (TransportsAndTrust.md); the libcurl transport has no such coupling.
        @Test func endlessBodyFailsWhenItPassesTheLimit() async throws {
            let key = FaultServer.newKey("endless")
            let client = try await FaultServer.client(
                configure: { $0.maximumResponseBodySize = 256 * 1024 })
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/endless",
                        query: [URLQueryItem(name: "key", value: key), URLQueryItem(name: "ms", value: "3000")]))
            }
            #expect(error?.kind == .transport(.responseTooLarge))
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func bodyUnderTheLimitIsReturnedWhole() async throws {
            let client = try await FaultServer.client(
                configure: { $0.maximumResponseBodySize = 1000 })
            let data = try await client.send(NetworkRequest<Data>(path: "/bytes/1000"))
            #expect(data.count == 1000)
        }

        @Test func crlfHeaderIsRejectedBeforeAnyIO() async throws {
            let key = FaultServer.newKey("crlf")
            let client = try await FaultServer.client()
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<Data>(
                        path: "/echo", query: [URLQueryItem(name: "key", value: key)],
                        headers: ["X-Evil": "a\r\nInjected: yes"]))
            }
            #expect(error?.kind == .invalidRequest)
            #expect(try await FaultServer.hits(key).count == 0)
        }

        @Test func refusedPortIsCannotConnect() async throws {
            let client = NetworkClient(
                baseURL: URL(string: "http://127.0.0.1:1")!, transport: URLSessionTransport())
            let error = try await expectNetworkError { try await client.send(NetworkRequest<Data>(path: "/")) }
            #expect(error?.kind == .transport(.cannotConnect))  // every engine: -1004 on Apple's loader too
            #expect(error?.transportError?.requestWasNotSent == true)
        }

        @Test func overlappingGETAndPOSTEachGetTheirOwnResponse() async throws {
            // GETs and POSTs travel on two sessions whose task identifiers both start at 1: a fresh transport makes
            // them collide at once if calls were found by identifier.
            let client = try await FaultServer.client(transport: URLSessionTransport())
            let key = FaultServer.newKey("overlap")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let slow = try await client.send(
                            NetworkRequest<[String: Int]>(
                                path: "/delay-ms/\(100 + index * 20)", query: [URLQueryItem(name: "key", value: key)]))
                        #expect(slow == ["delayed_ms": 100 + index * 20])
                    }
                    group.addTask {
                        let echo = try await client.send(
                            NetworkRequest<Echo>(
                                .post, path: "/echo", query: [URLQueryItem(name: "key", value: key)],
                                body: .json(["n": index])))
                        #expect(echo.method == "POST")
                        #expect(echo.body == #"{"n":\#(index)}"#)
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await FaultServer.hits(key).count == 16)
        }

        @Test func aPOSTTurnedIntoGETBy303IsNotResentAsPOSTByALater307() async throws {
            let key = FaultServer.newKey("303-then-307")
            let client = try await FaultServer.client()
            let inner = "/redirect-to?status=307&url=/echo?key=\(key)"
            let echo = try await client.send(
                NetworkRequest<Echo>(
                    .post, path: "/redirect-to",
                    query: [
                        URLQueryItem(name: "key", value: key), URLQueryItem(name: "status", value: "303"),
                        URLQueryItem(name: "url", value: inner),
                    ],
                    body: .json(["secret": "body"])))
            #expect(echo.method == "GET")
            #expect(echo.body == "")
            let hits = try await FaultServer.hits(key)
            #expect(hits.requests.map(\.method) == ["POST", "GET"])
        }

        @Test func anEnormousTimeLimitMeansNoLimitAndNeverOverflows() async throws {
            let transport = URLSessionTransport()
            let client = NetworkClient(
                configuration: .init(
                    baseURL: try await FaultServer.url(), transport: transport, timeout: .seconds(Int64.max / 2),
                    deadline: .seconds(Int64.max)))
            let ok = try await client.send(NetworkRequest<[String: Bool]>(path: "/ok"))
            #expect(ok == ["ok": true])
            let direct = try await transport.send(
                HTTPRequest(url: try await FaultServer.url().appendingPathComponent("ok")))
            #expect(direct.0.status.code == 200)
        }
    }
}
