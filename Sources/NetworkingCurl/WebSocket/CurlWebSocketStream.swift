import CCurlShim
import Foundation
import NetworkingCore
import NetworkingWebSocket

/// The caller's side of a ``CurlWebSocket``: the bytes of the open connection, as the client's framing reads and
/// writes them. Reads take what the loop thread has read ahead (at most ``CurlWebSocket/readAhead``), so a reader
/// that stops reading stops the loop reading the socket; writes are handed to the loop thread and return once
/// libcurl has taken every byte. Dropping the stream closes the connection.
///
/// The stream keeps its transport: a socket outlives the client it was opened with (an app keeps the socket, not
/// the client), and the transport going away would stop the loop thread under the connection.
final class CurlWebSocketStream: WebSocketByteStream {
    private let socket: CurlWebSocket
    private let transport: CurlTransport

    init(_ socket: CurlWebSocket, transport: CurlTransport) {
        self.socket = socket
        self.transport = transport
    }

    deinit {
        close()
    }

    func read() async throws -> Data? {
        let socket = socket
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let (outcome, poke): (Result<Data?, any Error>?, Bool) = socket.shared.withLock { shared in
                    if Task.isCancelled { return (.failure(CancellationError()), false) }
                    if !shared.chunks.isEmpty {
                        var data = shared.chunks[0]
                        for chunk in shared.chunks.dropFirst() { data.append(chunk) }
                        shared.chunks = []
                        shared.buffered = 0
                        // The loop stopped for room: it reads on once poked.
                        let poke = shared.paused && !shared.poked
                        shared.paused = false
                        if poke { shared.poked = true }
                        return (.success(data), poke)
                    }
                    switch shared.inputEnd {
                    case .success?: return (.success(nil), false)
                    case .failure(let error)?: return (.failure(error), false)
                    case nil: break
                    }
                    if shared.closed { return (.success(nil), false) }
                    shared.reader = continuation
                    return (nil, false)
                }
                if poke { socket.loop.submit(.webSocket(.poke(socket))) }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let reader = socket.shared.withLock { shared in
                defer { shared.reader = nil }
                return shared.reader
            }
            reader?.resume(throwing: CancellationError())
        }
    }

    func write(_ bytes: Data) async throws {
        guard !bytes.isEmpty else { return }
        let socket = socket
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let (refusal, poke): ((any Error)?, Bool) = socket.shared.withLock { shared in
                if let failure = shared.writeFailure { return (failure, false) }
                if shared.closed { return (TransportError(.connectionLost, "the connection is closed"), false) }
                shared.writes.append((bytes, continuation))
                let poke = !shared.poked
                shared.poked = true
                return (nil, poke)
            }
            if let refusal { return continuation.resume(throwing: refusal) }
            if poke { socket.loop.submit(.webSocket(.poke(socket))) }
        }
    }

    func close() {
        let first = socket.shared.withLock { shared in
            defer { shared.closed = true }
            return !shared.closed
        }
        if first { socket.loop.submit(.webSocket(.close(socket))) }
    }
}
