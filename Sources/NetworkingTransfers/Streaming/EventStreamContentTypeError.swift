import Foundation
import NetworkingHTTP
import NetworkingCore

/// Why an event stream connection failed: the response's `Content-Type` is not `text/event-stream` (HTML
/// Standard §9.2.3: the connection fails, no event is delivered and there is no reconnection).
///
/// `NetworkClient.events(_:behavior:clock:maximumReconnections:)` throws it as the `underlyingError` of a
/// `NetworkError` of kind `decoding`, which carries the response head:
///
/// ```swift
/// do {
///     for try await event in try client.events(NetworkRequest<Data>(path: "/feed")) { print(event.data) }
/// } catch let error as NetworkError {
///     if let wrong = error.underlyingError as? EventStreamContentTypeError { print(wrong.received ?? "none") }
/// }
/// ```
public struct EventStreamContentTypeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `Content-Type` the response carried, as received; `nil` when it had none.
    public let received: String?
    /// The request's name, such as `GET /feed`.
    public let requestName: String

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - received: The `Content-Type` received, or `nil`.
    ///   - requestName: The request's name.
    public init(received: String?, requestName: String) {
        self.received = received
        self.requestName = requestName
    }

    /// Whether `contentType` is `text/event-stream`, in any case, with or without parameters.
    ///
    /// - Parameter contentType: A `Content-Type` value, or `nil`.
    /// - Returns: `true` for an event stream.
    public static func isEventStream(_ contentType: String?) -> Bool {
        FieldSyntax.isMediaType(contentType, "text/event-stream")
    }

    /// `GET /feed: the response is text/plain, not text/event-stream: no event is read and no reconnection made`.
    public var description: String {
        let shown = received.map { "\"\(DisplayText.escapingControlCharacters($0))\"" } ?? "without a Content-Type"
        return "\(requestName): the response is \(shown), not text/event-stream: no event is read and no "
            + "reconnection made"
    }
}

extension EventStreamContentTypeError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
