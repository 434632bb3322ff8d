import CCurlShim
import Foundation
import NetworkingCore

/// The WebSocket connections of one ``CurlLoop`` (loop thread only): their commands, the sockets `curl_multi_poll`
/// watches for them besides libcurl's own, and the bytes moved when one is ready.
///
/// The loop calls in at four places, each marked in `CurlLoop.swift`: a command, a finished transfer (the
/// connect-only ones are these), the poll, and the stop.
final class CurlWebSockets {
    private var connections: [ObjectIdentifier: CurlWebSocket] = [:]
    private var byEasy: [UnsafeMutableRawPointer: CurlWebSocket] = [:]
    /// The sockets of the last poll and their connections, in the same order.
    private var watched: [ncurl_waitfd] = []
    private var watchedSockets: [CurlWebSocket] = []
    /// Where each read lands before it is copied out for the reader; one for all the loop's connections.
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    deinit {
        scratch.deallocate()
    }

    /// Runs a command of a connection.
    func handle(_ command: CurlWebSocket.Command, multi: UnsafeMutableRawPointer, api: UnsafeMutablePointer<ncurl_api>)
    {
        switch command {
        case .open(let socket):
            guard let easy = socket.easy, !socket.shared.withLock({ $0.closed }) else {
                socket.fail(CancellationError())
                return socket.release()
            }
            let added = api.pointee.multi_add_handle(multi, easy)
            guard added == 0 else {
                socket.fail(TransportError(.other, "libcurl refused the connection (multi code \(added))"))
                return socket.release()
            }
            socket.phase = .connecting
            connections[ObjectIdentifier(socket)] = socket
            byEasy[easy] = socket
        case .poke(let socket):
            guard connections[ObjectIdentifier(socket)] != nil else { return }
            socket.shared.withLock { $0.poked = false }
            socket.service(scratch: scratch)
            settle(socket, multi: multi, api: api)
        case .close(let socket):
            guard connections[ObjectIdentifier(socket)] != nil else { return }
            socket.closedByCaller()
            settle(socket, multi: multi, api: api)
        }
    }

    /// The transfer of `easy` finished: `true` when it is a connection's (its handle stays in the multi handle,
    /// which keeps the connection), which then sends its handshake.
    func finished(
        _ easy: UnsafeMutableRawPointer, result: Int32, multi: UnsafeMutableRawPointer,
        api: UnsafeMutablePointer<ncurl_api>
    ) -> Bool {
        guard let socket = byEasy[easy] else { return false }
        socket.connected(result: result)
        socket.service(scratch: scratch)
        settle(socket, multi: multi, api: api)
        return true
    }

    /// `curl_multi_poll` with the sockets of the connections waiting to read or write.
    func poll(
        _ multi: UnsafeMutableRawPointer, timeout: Int32, ready: inout Int32, api: UnsafeMutablePointer<ncurl_api>
    ) {
        watched.removeAll(keepingCapacity: true)
        watchedSockets.removeAll(keepingCapacity: true)
        var readsAgain = false
        for socket in connections.values
        where socket.socket >= 0 && (socket.wantsRead || socket.wantsWrite || socket.readsAgain) {
            let events: Int16 = (socket.wantsRead ? 1 : 0) | (socket.wantsWrite ? 4 : 0)
            watched.append(ncurl_waitfd(fd: socket.socket, events: events, revents: 0))
            watchedSockets.append(socket)
            readsAgain = readsAgain || socket.readsAgain
        }
        let count = UInt32(watched.count)
        _ = watched.withUnsafeMutableBufferPointer { fds in
            api.pointee.multi_poll(multi, count == 0 ? nil : fds.baseAddress, count, readsAgain ? 0 : timeout, &ready)
        }
    }

    /// Moves the bytes of the connections the last poll found ready.
    func serviceReady(multi: UnsafeMutableRawPointer, api: UnsafeMutablePointer<ncurl_api>) {
        for (index, socket) in watchedSockets.enumerated() where watched[index].revents != 0 || socket.readsAgain {
            socket.service(scratch: scratch)
            settle(socket, multi: multi, api: api)
        }
        watched.removeAll(keepingCapacity: true)
        watchedSockets.removeAll(keepingCapacity: true)
    }

    /// Ends every connection (the loop stops): handshakes waiting fail with `CancellationError`, open connections
    /// end as lost.
    func stopAll(multi: UnsafeMutableRawPointer, api: UnsafeMutablePointer<ncurl_api>) {
        for socket in connections.values {
            socket.fail(
                socket.phase == .open
                    ? TransportError(.connectionLost, "the transport was released") : CancellationError())
            detach(socket, multi: multi, api: api)
        }
    }

    /// Closes the connection of `socket` once it is over: its handle leaves the multi handle (which closes the
    /// connection, libcurl 7.88's `curl_multi_remove_handle` for connect-only transfers) and is freed.
    private func settle(_ socket: CurlWebSocket, multi: UnsafeMutableRawPointer, api: UnsafeMutablePointer<ncurl_api>) {
        if socket.phase == .closed { detach(socket, multi: multi, api: api) }
    }

    private func detach(_ socket: CurlWebSocket, multi: UnsafeMutableRawPointer, api: UnsafeMutablePointer<ncurl_api>) {
        connections[ObjectIdentifier(socket)] = nil
        if let easy = socket.easy {
            byEasy[easy] = nil
            _ = api.pointee.multi_remove_handle(multi, easy)
        }
        socket.release()
    }
}
