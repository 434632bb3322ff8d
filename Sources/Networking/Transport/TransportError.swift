import Foundation

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
        /// TLS failed: handshake, certificate or trust. Never worth retrying.
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

    /// Creates a transport error.
    public init(_ code: Code, _ message: String, urlErrorCode: Int? = nil) {
        self.code = code
        self.message = message
        self.urlErrorCode = urlErrorCode
    }

    /// Whether the failure proves the request never reached the server, so even a `POST` may be sent again.
    public var requestWasNotSent: Bool {
        switch code {
        case .cannotConnect, .cannotFindHost, .notConnected: true
        default: false
        }
    }

    /// `code: message (URLError n)`.
    public var description: String {
        let suffix = urlErrorCode.map { " (URLError \($0))" } ?? ""
        return "\(code.rawValue): \(message)\(suffix)"
    }
}

extension TransportError {
    /// Classifies a `URLError`. Returns `nil` for `.cancelled`, which the client reports as `CancellationError`.
    public init?(_ error: URLError) {
        let code: Code
        switch error.code {
        case .cancelled:
            return nil
        case .cannotConnectToHost:
            code = .cannotConnect
        case .cannotFindHost, .dnsLookupFailed:
            code = .cannotFindHost
        case .notConnectedToInternet:
            code = .notConnected
        case .timedOut:
            code = .timedOut
        case .networkConnectionLost:
            code = .connectionLost
        case .badServerResponse, .zeroByteResource, .cannotParseResponse, .unsupportedURL:
            code = .badServerResponse
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            code = .tooManyRedirects
        case .dataLengthExceedsMaximum:
            code = .responseTooLarge
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            code = .secureConnectionFailed
        default:
            code = .other
        }
        self.init(code, error.localizedDescription, urlErrorCode: error.code.rawValue)
    }
}
