import Foundation
import NetworkingHTTP
import NetworkingCore
import NetworkingTLS

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Request bodies beyond memory: what a task can send, and the task for it.
extension URLSessionTransportDelegate {
    /// `request` with a body a task can send: bytes and a file as they are; a produced body (a stream, a multipart
    /// form with files) collected in a temporary file first, returned for the caller to remove once the call ends.
    /// Foundation's networking on Linux cannot pull a body from an async producer without stalling its other
    /// transfers, so it goes from disk with an exact length.
    static func preparingBody(of request: HTTPRequest) async throws -> (HTTPRequest, spooled: URL?) {
        guard request.body.data == nil, request.body.fileURL == nil else { return (request, nil) }
        let file = try await StreamSpool.write(request.body)
        var prepared = request
        prepared.body = .file(file)
        return (prepared, file)
    }

    /// ``preparingBody(of:)`` under the attempt's time limit: a streamed body is spooled in a task of its own, which
    /// the limit's interruption cancels (every other body needs no waiting).
    static func preparingBody(
        of request: HTTPRequest, interruption: TransferInterruption?
    ) async throws -> (HTTPRequest, spooled: URL?) {
        guard let interruption, request.body.data == nil, request.body.fileURL == nil else {
            return try await preparingBody(of: request)
        }
        let spooling = Task { try await preparingBody(of: request) }
        let registration = interruption.register { spooling.cancel() }
        if registration == nil { spooling.cancel() }
        defer { registration.map(interruption.unregister) }
        return try await withTaskCancellationHandler {
            try await spooling.value
        } onCancel: {
            spooling.cancel()
        }
    }

    /// A new task for `request`, sent as `urlRequest`: a file body gets an upload task that opens the file afresh,
    /// anything else a data task.
    static func makeTask(for request: HTTPRequest, _ urlRequest: URLRequest, on session: URLSession) -> URLSessionTask {
        if let file = request.body.fileURL { return session.uploadTask(with: urlRequest, fromFile: file) }
        return session.dataTask(with: urlRequest)
    }
}
