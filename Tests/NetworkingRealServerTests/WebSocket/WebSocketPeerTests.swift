import Foundation
import Networking
import NetworkingCurl
import NetworkingTestSupport
import Testing

extension RealServerTests {
    /// The client against a WebSocket server nobody here wrote (the `websockets` package), over plain TCP and TLS and
    /// through nginx, on this run's transport (on the URLSession pass on Linux, the refusal is what is asserted).
    @Suite struct WebSocketPeerTests {
        /// A client of this run's transport at `base`.
        static func client(_ base: URL, behavior: any RequestBehavior = EmptyBehavior()) throws -> NetworkClient {
            try loopbackClient(base, transport: TestTransport.make(), behavior: behavior, timeout: .seconds(10))
        }

        /// Opens `request`; on a run whose transport refuses WebSockets, checks the refusal and returns `nil`.
        static func open(_ client: NetworkClient, _ request: WebSocketRequest) async throws -> WebSocket? {
            guard RealServerTests.webSocketsAreRefused else { return try await client.webSocket(request) }
            let error = try await expectNetworkError { try await client.webSocket(request) }
            #expect(error?.webSocketError?.kind == .unsupportedTransport)
            return nil
        }

        /// Sends text, binary and a 1 MiB message, pings, and closes: the echo comes back whole.
        static func echoes(on base: URL) async throws {
            var request = WebSocketRequest(path: "/echo")
            request.maximumMessageSize = 4 * 1024 * 1024
            guard let socket = try await open(try client(base), request) else { return }
            var messages = socket.messages.makeAsyncIterator()
            let big = Data((0..<(1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            for message: WebSocketMessage in [.text("héllo"), .binary(Data([0, 255, 7])), .binary(big)] {
                try await socket.send(message)
                #expect(try await messages.next() == message)
            }
            try await socket.ping()
            try await socket.close(.normalClosure, reason: "done")
            #expect(socket.closeCode == .normalClosure)
        }

        @Test func messagesAreEchoedOverPlainTCP() async throws {
            try await Self.echoes(on: try await WebSocketPeer.url())
        }

        @Test func messagesAreEchoedOverTLSSignedByTheRunsAuthority() async throws {
            try await Self.echoes(on: try await WebSocketPeer.tlsURL())
        }

        @Test func nginxProxiesTheUpgradeOverPlainTCP() async throws {
            let nginx = try await NginxHTTP2Server.webSocketProxy.value
            try await Self.echoes(on: URL(string: "http://127.0.0.1:\(nginx.port)")!)
        }

        @Test func nginxProxiesTheUpgradeOverTLS() async throws {
            let nginx = try await NginxHTTP2Server.webSocketProxy.value
            try await Self.echoes(on: URL(string: "https://127.0.0.1:\(nginx.mutualPort)")!)
        }

        @Test func theSubprotocolTheServerChoseIsTheSockets() async throws {
            let client = try Self.client(try await WebSocketPeer.url())
            guard
                let socket = try await Self.open(
                    client, WebSocketRequest(path: "/echo", subprotocols: ["chat.v2", "chat.v1"]))
            else { return }
            #expect(socket.subprotocol == "chat.v1")
            try await socket.close()
        }

        @Test func aHandshakeWithoutTheTokenIsRefusedWith401AndItsBodyAndWithItOpens() async throws {
            let base = try await WebSocketPeer.url()
            if RealServerTests.webSocketsAreRefused {
                _ = try await Self.open(try Self.client(base), WebSocketRequest(path: "/auth"))
                return
            }
            let error = try await expectNetworkError {
                try await Self.client(base).webSocket(WebSocketRequest(path: "/auth"))
            }
            #expect(error?.kind == .unacceptableStatus(401))
            #expect(error?.requestName == "GET /auth")
            if TestTransport.current == .curl {
                #expect(error?.body.map { String(decoding: $0, as: UTF8.self) } == "a bearer token is required\n")
            }
            let authorized = try Self.client(
                base, behavior: .authorization(.bearer, store: InMemoryTokenStore("t0ken")))
            let socket = try await authorized.webSocket(WebSocketRequest(path: "/auth"))
            try await socket.send(.text("in"))
            var messages = socket.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("in"))
            try await socket.close()
        }

        @Test func theServersCloseCodeAndReasonReachTheSocket() async throws {
            let client = try Self.client(try await WebSocketPeer.url())
            guard
                let socket = try await Self.open(
                    client, WebSocketRequest(path: "/close", query: [URLQueryItem(name: "code", value: "4001")]))
            else { return }
            for try await _ in socket.messages {}
            #expect(socket.closeCode == WebSocketCloseCode(rawValue: 4001))
            #expect(socket.closeReason == "bye")
        }

        @Test func cancellingTheReadingTaskClosesWithGoingAway() async throws {
            let key = FaultServer.newKey("ws-cancel")
            let client = try Self.client(try await WebSocketPeer.url())
            guard
                let socket = try await Self.open(
                    client, WebSocketRequest(path: "/echo", query: [URLQueryItem(name: "key", value: key)]))
            else { return }
            let reader = Task { for try await _ in socket.messages {} }
            try await socket.ping()  // the reader is reading by now
            reader.cancel()
            await #expect(throws: CancellationError.self) { try await reader.value }
            try await socket.close()  // waits for the closing handshake the cancellation began
            var closing: WebSocketPeer.Closing?
            for _ in 0..<50 where closing == nil {
                closing = try await WebSocketPeer.closing(key)
                if closing == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(closing?.code == 1001)
        }

        @Test func aSlowReaderGetsEveryByteOfWhatTheServerPushes() async throws {
            let total = 16 * 1024 * 1024
            let client = try Self.client(try await WebSocketPeer.url())
            guard
                let socket = try await Self.open(
                    client,
                    WebSocketRequest(path: "/push", query: [URLQueryItem(name: "bytes", value: "\(total)")]))
            else { return }
            var received = 0
            var count = 0
            for try await message in socket.messages {
                guard case .binary(let data) = message else { continue }
                received += data.count
                count += 1
                // Naps while the server pushes: the connection stops reading, and reads on after.
                if count % 64 == 0 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(received == total)
            #expect(socket.closeCode == .normalClosure)
        }

        @Test func aHandshakeUnansweredWithinTheAttemptLimitTimesOut() async throws {
            let client = try Self.client(try await FaultServer.url())
            var request = WebSocketRequest(path: "/delay-ms/3000")
            request.timeout = .milliseconds(400)
            if RealServerTests.webSocketsAreRefused {
                _ = try await Self.open(client, request)
                return
            }
            let start = ContinuousClock.now
            let error = try await expectNetworkError { try await client.webSocket(request) }
            #expect(error?.kind == .timedOut(.attempt))
            #expect(error?.requestName == "GET /delay-ms/3000")
            #expect(ContinuousClock.now - start < .seconds(2))
        }

        @Test func aRefusedPortIsCannotConnectNamingTheRequest() async throws {
            let client = try Self.client(URL(string: "http://127.0.0.1:1")!)
            if RealServerTests.webSocketsAreRefused {
                _ = try await Self.open(client, WebSocketRequest(path: "/chat"))
                return
            }
            let error = try await expectNetworkError { try await client.webSocket(WebSocketRequest(path: "/chat")) }
            // every engine: Apple's WebSocket task reports a refused port as -1004 too.
            #expect(error?.kind == .transport(.cannotConnect))
            #expect(error?.requestName == "GET /chat")
        }

        @Test func aServerNobodyTrustsFailsTheTLSHandshake() async throws {
            let tls = try await FaultServer.tlsStats()
            let client = try Self.client(URL(string: "https://127.0.0.1:\(tls.port)")!)
            if RealServerTests.webSocketsAreRefused {
                _ = try await Self.open(client, WebSocketRequest(path: "/chat"))
                return
            }
            let error = try await expectNetworkError { try await client.webSocket(WebSocketRequest(path: "/chat")) }
            // every engine: Apple's WebSocket task reports an untrusted certificate as -1202, a refused handshake.
            #expect(error?.kind == .transport(.secureConnectionFailed))
        }
    }
}
