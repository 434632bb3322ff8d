import Foundation
import Testing

import Networking
import NetworkingTestSupport
import NetworkingTesting
import NetworkingWebSocket

/// The connection on the wire, byte for byte: masks from the random source, backpressure, the periodic ping on the
/// test clock, and a 101 that is no WebSocket's.
@Suite struct WebSocketConnectionTests {
    /// A transport answering every handshake with a 101 whose accept value `accept` makes from the key, over an
    /// in-memory connection whose server end the test reads and writes as bytes.
    final class RawTransport: WebSocketTransport {
        let server = LockedBox<MemoryByteStream?>(nil)
        let accept: @Sendable (String) -> String
        let capacity: Int

        init(capacity: Int = 256 * 1024, accept: @escaping @Sendable (String) -> String = WebSocketHandshake.accept) {
            self.capacity = capacity
            self.accept = accept
        }

        func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
            (HTTPResponse(status: 404), .empty)
        }

        func openWebSocket(_ request: HTTPRequest) async throws -> WebSocketUpgrade {
            let (client, server) = MemoryByteStream.pair(capacity: capacity)
            self.server.withLock { $0 = server }
            let key = request.headerFields["Sec-WebSocket-Key"] ?? ""
            let fields: HTTPFields = [
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept(key),
            ]
            return WebSocketUpgrade(switchingProtocols: HTTPResponse(status: 101, headerFields: fields), stream: client)
        }
    }

    /// Reads `count` bytes from `stream`.
    static func read(_ count: Int, from stream: MemoryByteStream, into buffer: inout Data) async throws -> Data {
        while buffer.count < count {
            guard let bytes = try await stream.read() else { break }
            buffer.append(bytes)
        }
        defer { buffer.removeFirst(min(count, buffer.count)) }
        return Data(buffer.prefix(count))
    }

    @Test func everyClientFrameIsMaskedWithTheNextKeyOfTheRandomSource() async throws {
        // §5.3: a fresh key per frame. The source counts up, so the key of each frame is known.
        let counter = LockedBox<UInt8>(0)
        let random = WebSocketRandom { count in
            counter.withLock { value in
                (0..<count).map { _ in
                    value &+= 1
                    return value
                }
            }
        }
        let transport = RawTransport()
        let client = try makeClient(transport: transport, clock: TestClock())
        let socket = try await client.webSocket(
            WebSocketRequest(path: "/raw"), behavior: EmptyBehavior(), random: random)
        let server = try #require(transport.server.current)
        try await socket.send(.text("Hello"))
        var buffer = Data()
        // The key took bytes 1...16, so the frame's mask is 17, 18, 19, 20.
        let key: [UInt8] = [17, 18, 19, 20]
        let expected = WebSocketFrameEncoding.frame(opcode: 0x1, payload: Data("Hello".utf8), maskKey: key)
        #expect(try await Self.read(expected.count, from: server, into: &buffer) == expected)
        #expect(Array(expected.prefix(2)) == [0x81, 0x85])  // FIN, text, MASK, 5 bytes
        try await socket.send(.binary(Data([1, 2, 3])))
        let second = WebSocketFrameEncoding.frame(opcode: 0x2, payload: Data([1, 2, 3]), maskKey: [21, 22, 23, 24])
        #expect(try await Self.read(second.count, from: server, into: &buffer) == second)
        server.close()
    }

    @Test func aSwitchingProtocolsWithAWrongAcceptIsRefusedAndNeverRetried() async throws {
        let transport = RawTransport(accept: { _ in "HSmrc0sMlYUkAGmm5OPpG2HaGWk=" })
        let clock = TestClock()
        let client = try makeClient(transport: transport, behavior: .retry(clock: clock), clock: clock)
        let error = try await expectNetworkError { try await client.webSocket(WebSocketRequest(path: "/raw")) }
        #expect(error?.kind == .transport(.other))
        #expect(error?.webSocketError?.kind == .invalidHandshake)
        #expect(error?.message.contains("Sec-WebSocket-Accept") == true)
        #expect(error?.attempts.count == 1)
        #expect(transport.server.current?.isClosed == true)
    }

    @Test func aSlowReaderStopsTheConnectionReadingAndLosesNothing() async throws {
        // 64 messages of 64 KiB against a buffer of 128 KiB and 256 KiB of "network": the server can write about
        // 7 before the reader reads, whatever the timing; then every message arrives, in order.
        let sent = LockedBox(0)
        let message = Data(repeating: 0x5A, count: 64 * 1024)
        let server = MockWebSocketServer { peer in
            for index in 0..<64 {
                try await peer.send(.binary(message + Data([UInt8(index)])))
                sent.withLock { $0 += 1 }
            }
            try await peer.close()
        }
        let client = try makeClient(transport: MockTransport().stubWebSocket("/flood", server), clock: TestClock())
        var request = WebSocketRequest(path: "/flood")
        request.bufferLimit = 128 * 1024
        let socket = try await client.webSocket(request)
        #expect(await eventually { sent.current >= 3 })
        for _ in 0..<2000 { await Task.yield() }
        #expect(sent.current < 12, "the server wrote \(sent.current) messages to a reader that read none")
        var received = 0
        for try await message in socket.messages {
            guard case .binary(let data) = message else { break }
            #expect(data.last == UInt8(received))
            received += 1
        }
        #expect(received == 64)
    }

    @Test func thePeriodicPingRunsOnTheClientsClockAndAnUnansweredOneFailsTheConnection() async throws {
        let clock = TestClock(mode: .manual)
        let answering = Gate()
        let server = MockWebSocketServer { _ in await answering.wait() }
        let client = try makeClient(transport: MockTransport().stubWebSocket("/live", server), clock: clock)
        var request = WebSocketRequest(path: "/live")
        request.pingInterval = .seconds(30)
        let socket = try await client.webSocket(request)
        // The server reads (and answers pings) only once the gate opens.
        await clock.waitForTimers(1)
        clock.advance(by: .seconds(30))
        answering.open()
        #expect(await eventually { server.connections.first?.receivedPings.count == 1 })
        try await socket.ping()  // its pong follows the first one's: once it is back, so is the first
        await clock.waitForTimers(1)
        clock.advance(by: .seconds(30))  // the first pong came: a second ping, no failure
        #expect(await eventually { server.connections.first?.receivedPings.count == 3 })
        try await socket.close()

        let silent = MockWebSocketServer { _ in await Gate().wait() }
        let quiet = try makeClient(transport: MockTransport().stubWebSocket("/live", silent), clock: clock)
        let stuck = try await quiet.webSocket(request)
        await clock.waitForTimers(1)
        clock.advance(by: .seconds(30))
        await clock.waitForTimers(1)
        clock.advance(by: .seconds(30))
        let error = try await expectNetworkError { for try await _ in stuck.messages {} }
        #expect(error?.webSocketError?.kind == .pingTimeout)
        #expect(error?.kind == .transport(.timedOut))
    }
}
