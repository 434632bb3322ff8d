import Foundation
import NetworkingHTTP

/// The one piece of ``NetworkClient`` that touches the network: an `HTTPRequest` in, a response head and its
/// `HTTPBody` out, for exactly one hop.
///
/// ### Choose between a transport and a behavior
/// A transport moves bytes; a ``RequestBehavior`` decides what to send and what to do with the outcome (headers,
/// retries, logging). Write a transport to change *how* requests travel (a different HTTP stack, fixtures from
/// disk, a mock in tests). Write a behavior for anything that should work whatever the transport is.
///
/// ### Rules for a transport
/// - Return as soon as the head is known, with the body still arriving (`HTTPBody/makeStream(length:bufferLimit:onDemand:)`,
///   respecting its backpressure: pause reading while `HTTPBody/Continuation/yield(_:)` answers `false`), or
///   later with the whole body in memory; the client reads either the same way.
/// - Answer every status code with a response, a 3xx too: the client, not the transport, follows redirects and
///   decides which statuses are errors.
/// - Throw `CancellationError` promptly when the calling task is cancelled before the head; stop the transfer and
///   close the connection when the body ends as cancelled (`HTTPBody/Continuation/onTermination(_:)`).
/// - Throw ``TransportError`` (or `URLError`, which the client maps to one) when no response could be had, and end
///   the body with one when the transfer fails after the head.
/// - Send the header fields with the letter case they were written in, and nothing the request did not ask for.
/// - Keep no time limit and no body size limit: the client keeps both. Report bytes sent and engine facts to
///   ``TransferObservation/attempt`` when you can.
///
/// The client has checked the request already (`HTTPRequest/invalidReason` is `nil`).
///
/// ### A test transport
/// ```swift
/// struct AlwaysOK: HTTPTransport {
///     func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
///         (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), .data(Data(#"{"ok":true}"#.utf8)))
///     }
/// }
/// ```
/// `NetworkingTesting` ships ready-made ones with typed responses, scripts and recording.
public protocol HTTPTransport: Sendable {
    /// Sends `request` (one hop) and returns the response head with its body.
    ///
    /// - Parameter request: The request, already checked and changed by every behavior.
    /// - Returns: The response head and the body (arriving, or in memory), for any status code.
    /// - Throws: `CancellationError` when cancelled; a ``TransportError`` or `URLError` when no response came.
    func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody)
}
