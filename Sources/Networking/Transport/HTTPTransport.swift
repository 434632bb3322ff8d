import Foundation

/// The one piece of ``NetworkClient`` that touches the network: an ``HTTPRequest`` in, a response head and body
/// out.
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
/// - Send the header fields with the letter case they were written in.
///
/// The client has checked the request already (``HTTPRequest/invalidReason`` is `nil`), and it keeps the time
/// limits itself, so a transport needs no timer of its own.
///
/// ### A test transport
/// ```swift
/// struct AlwaysOK: HTTPTransport {
///     func send(_ request: HTTPRequest) async throws -> (HTTPResponse, Data) {
///         (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(#"{"ok":true}"#.utf8))
///     }
/// }
/// ```
/// `NetworkingTesting` ships ready-made ones with typed responses, scripts and recording.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response head and body.
    ///
    /// - Parameter request: The request, already checked and changed by every behavior.
    /// - Returns: The response head and the body, for any status code.
    /// - Throws: `CancellationError` when cancelled; a ``TransportError`` or `URLError` when no response came.
    func send(_ request: HTTPRequest) async throws -> (HTTPResponse, Data)
}
