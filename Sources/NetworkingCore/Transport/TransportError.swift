import Foundation
import NetworkingHTTP

/// Why a transport produced no response, in words a retry policy can act on.
///
/// Linux's Foundation networking maps many distinct failures to `URLError.unknown` (-1); the transport keeps the message so
/// logs still say what happened, and classifies what it can.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The connection was refused or could not be opened: nothing was sent.
        case cannotConnect
        /// The host name could not be resolved: nothing was sent.
        case cannotFindHost
        /// The machine has no network: nothing was sent.
        case notConnected
        /// The transport's own timer fired.
        case timedOut
        /// The connection broke after the request may have been sent.
        case connectionLost
        /// The server closed the connection without answering, or answered something that is not HTTP.
        case badServerResponse
        /// More redirects than allowed, or a redirect loop.
        case tooManyRedirects
        /// A redirect to a scheme other than `http`/`https`, or from `https` to `http`.
        case redirectRefused
        /// The body was larger than the transport's limit.
        case responseTooLarge
        /// TLS failed: an untrusted or invalid certificate, or a failed handshake. Never worth retrying.
        /// ``TransportError/secureConnectionFailure`` tells which.
        case secureConnectionFailed
        /// Anything else; the message says what.
        case other
    }

    /// The class of failure.
    public var code: Code
    /// A human-readable explanation.
    public var message: String
    /// The `URLError` code behind this error, when there was one.
    public var urlErrorCode: Int?
    /// For ``Code/secureConnectionFailed``: whether the certificate was refused or the handshake itself failed.
    public var secureConnectionFailure: SecureConnectionFailure?

    /// What part of a TLS connection failed.
    public enum SecureConnectionFailure: String, Sendable, Hashable, CaseIterable {
        /// The server's certificate was refused: untrusted issuer, self-signed, expired, not yet valid, wrong host
        /// name, or a pin that did not match. Look at the server's certificate or the client's trust settings.
        case certificate
        /// The TLS handshake failed before any certificate was judged: no common protocol version or cipher, a
        /// plain-HTTP server on an `https` URL, an alert from the server, or a client certificate it refused (under
        /// TLS 1.3 that refusal is an alert the client reads after its side of the handshake: still this case).
        case handshake
    }

    /// Creates a transport error.
    ///
    /// - Parameters:
    ///   - code: The class of failure.
    ///   - message: A human-readable explanation.
    ///   - urlErrorCode: The `URLError` code behind it, if any.
    ///   - secureConnectionFailure: For ``Code/secureConnectionFailed``, which part of TLS failed.
    public init(
        _ code: Code, _ message: String, urlErrorCode: Int? = nil,
        secureConnectionFailure: SecureConnectionFailure? = nil
    ) {
        self.code = code
        self.message = message
        self.urlErrorCode = urlErrorCode
        self.secureConnectionFailure = secureConnectionFailure
    }

    /// Whether the failure proves the request never reached the server, so even a `POST` may be sent again.
    public var requestWasNotSent: Bool {
        switch code {
        case .cannotConnect, .cannotFindHost, .notConnected: true
        default: false
        }
    }

    /// `code: message (URLError n)`, with `certificate` or `handshake` after a TLS code.
    public var description: String {
        let kind = secureConnectionFailure.map { "(\($0.rawValue))" } ?? ""
        let suffix = urlErrorCode.map { " (URLError \($0))" } ?? ""
        return "\(code.rawValue)\(kind): \(message)\(suffix)"
    }
}

extension TransportError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
