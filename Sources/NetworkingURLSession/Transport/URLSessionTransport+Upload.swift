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

    /// A new task for `request`, sent as `urlRequest`: a file body gets an upload task that opens the file afresh,
    /// anything else a data task.
    static func makeTask(for request: HTTPRequest, _ urlRequest: URLRequest, on session: URLSession) -> URLSessionTask {
        if let file = request.body.fileURL { return session.uploadTask(with: urlRequest, fromFile: file) }
        return session.dataTask(with: urlRequest)
    }
}
