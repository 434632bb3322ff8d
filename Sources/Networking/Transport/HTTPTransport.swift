import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one piece of ``NetworkClient`` that touches the network: a `URLRequest` in, a body and response head out.
///
/// ### Choose between a transport and a behavior
/// A transport moves bytes; a ``RequestBehavior`` decides what to send and what to do with the outcome (headers,
/// retries, logging). Write a transport to change *how* requests travel (a different HTTP stack, fixtures from
/// disk, a mock in tests). Write a behavior for anything that should work whatever the transport is.
///
/// ### Rules for a transport
/// - Answer every status code with a response; the client, not the transport, decides which ones are errors.
/// - Throw `CancellationError` promptly when the calling task is cancelled.
/// - Throw ``TransportError`` (or `URLError`, which the client maps to one) when no response could be had.
///
/// ### A test transport
/// ```swift
/// struct AlwaysOK: HTTPTransport {
///     func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
///         let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
///         return (Data(#"{"ok":true}"#.utf8), response)
///     }
/// }
/// ```
/// `NetworkingTesting` ships ready-made ones with typed responses, scripts and recording.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and response head.
    ///
    /// - Parameter request: The request, already validated and changed by every behavior.
    /// - Returns: The body and the response head, for any status code.
    /// - Throws: `CancellationError` when cancelled; a ``TransportError`` or `URLError` when no response came.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
