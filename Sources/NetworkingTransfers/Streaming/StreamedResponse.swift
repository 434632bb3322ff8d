import Foundation
import NetworkingHTTP
import NetworkingCore

/// What `NetworkClient/stream(_:behavior:)` returns: the response head, and the body still arriving.
///
/// It is itself a sequence of the body's chunks, so `for try await chunk in streamed` reads the body.
public struct StreamedResponse: AsyncSequence, Sendable {
    /// Each element is one chunk of the body.
    public typealias Element = Data

    /// The response head.
    public let response: HTTPResponse
    /// The body, read once.
    public let body: HTTPBody

    /// Creates a streamed response.
    ///
    /// - Parameters:
    ///   - response: The head.
    ///   - body: The body stream.
    public init(response: HTTPResponse, body: HTTPBody) {
        self.response = response
        self.body = body
    }

    /// The trailer fields the server sent after the body (`HTTPBody/trailerFields`), once it has been read to its
    /// end; `nil` before that, when none came, and on a transport that cannot read them.
    public var trailerFields: HTTPFields? { body.trailerFields }

    /// Reads the body.
    public func makeAsyncIterator() -> HTTPBody.Iterator {
        body.makeAsyncIterator()
    }
}
