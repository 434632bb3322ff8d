import Foundation
import NetworkingHTTP

extension TransportError {
    /// Classifies a `URLError`. Returns `nil` for `.cancelled`, which the client reports as `CancellationError`.
    ///
    /// Apple platforms report most failures with a precise code. Linux's Foundation networking reports every libcurl
    /// failure it has no code for as `URLError.unknown` (-1) and keeps libcurl's message, so for that code the
    /// message decides (see `init(urlErrorCode:message:)`).
    ///
    /// - Parameter error: What Foundation reported.
    public init?(_ error: URLError) {
        guard error.code != .cancelled else { return nil }
        self = TransportError(urlErrorCode: error.code.rawValue, message: error.localizedDescription)
    }

    /// Classifies a failure from the `URLError` code and the message Foundation gave with it.
    ///
    /// | Reported | Code |
    /// |---|---|
    /// | `-1004` cannot connect | ``Code/cannotConnect`` |
    /// | `-1003`, `-1006` host not found | ``Code/cannotFindHost`` |
    /// | `-1009` offline | ``Code/notConnected`` |
    /// | `-1001` timed out | ``Code/timedOut`` |
    /// | `-1005` connection lost; `-1`: "transfer closed with …" (a body cut short of its length) | ``Code/connectionLost`` |
    /// | `-1011`, `-1014`, `-1017`, `-1002`; `-1`: a broken chunked encoding | ``Code/badServerResponse`` |
    /// | `-1007`, `-1010` | ``Code/tooManyRedirects`` |
    /// | `-1103` | ``Code/responseTooLarge`` |
    /// | `-1201`…`-1204`; `-1`: "SSL certificate problem", a host name mismatch | ``Code/secureConnectionFailed``, certificate |
    /// | `-1200`, `-1205`, `-1206`; `-1`: "SSL_connect", "SSL routines", a TLS alert | ``Code/secureConnectionFailed``, handshake |
    /// | anything else (a malformed header, libcurl out of memory) | ``Code/other`` |
    ///
    /// - Parameters:
    ///   - urlErrorCode: The `URLError` code; `-1` for Linux's catch-all.
    ///   - message: Foundation's description of the failure (libcurl's message on Linux).
    public init(urlErrorCode: Int, message: String) {
        let (code, tls) = Self.classify(urlErrorCode: urlErrorCode, message: message)
        self.init(code, message, urlErrorCode: urlErrorCode, secureConnectionFailure: tls)
    }

    private static func classify(urlErrorCode: Int, message: String) -> (Code, SecureConnectionFailure?) {
        switch URLError.Code(rawValue: urlErrorCode) {
        case .cannotConnectToHost: return (.cannotConnect, nil)
        case .cannotFindHost, .dnsLookupFailed: return (.cannotFindHost, nil)
        case .notConnectedToInternet: return (.notConnected, nil)
        case .timedOut: return (.timedOut, nil)
        case .networkConnectionLost: return (.connectionLost, nil)
        case .badServerResponse, .zeroByteResource, .cannotParseResponse, .unsupportedURL:
            return (.badServerResponse, nil)
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return (.tooManyRedirects, nil)
        case .dataLengthExceedsMaximum: return (.responseTooLarge, nil)
        case .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
            .serverCertificateNotYetValid:
            return (.secureConnectionFailed, .certificate)
        case .secureConnectionFailed, .clientCertificateRejected, .clientCertificateRequired:
            return (.secureConnectionFailed, .handshake)
        case .unknown: return LibcurlMessage.classify(message)
        default: return (.other, nil)
        }
    }
}

/// libcurl's messages, which Linux's Foundation passes on under `URLError.unknown`, read for what they say.
///
/// Matching is on fragments libcurl has printed for years (curl's `lib/` sources, 7.x and 8.x) and ignores
/// letter case. An unknown message stays ``TransportError/Code/other``: a guess could make a TLS failure look
/// retryable.
package enum LibcurlMessage {
    /// Fragments of messages about a refused certificate (CURLE_PEER_FAILED_VERIFICATION and OpenSSL's verify errors).
    package static let certificate = [
        "ssl certificate problem", "certificate verify failed", "no alternative certificate subject name",
        "certificate subject name", "ssl peer certificate", "unable to get local issuer certificate",
        "self-signed certificate", "self signed certificate", "certificate has expired", "certificate is not yet valid",
        "pinned public key",
    ]
    /// Fragments of messages about a failed TLS handshake (CURLE_SSL_CONNECT_ERROR and OpenSSL's alerts).
    package static let handshake = [
        "ssl_connect", "ssl routines", "ssl_error", "ssl connect error", "tls connect error", "wrong version number",
        "alert handshake failure", "alert protocol version", "unsupported protocol", "no cipher", "sslv3 alert",
        "tlsv1 alert", "ssl: couldn't", "unknown ssl protocol",
    ]
    /// A body that stopped before its announced end: `transfer closed with 90 bytes remaining to read`,
    /// `transfer closed with outstanding read data remaining` (CURLE_PARTIAL_FILE, a chunked body cut off).
    package static let cutShort = ["transfer closed with", "partial file"]
    /// Broken chunked framing: the server answered something that is not HTTP.
    package static let badFraming = ["chunked-encoding", "chunked encoding", "malformed encoding"]

    package static func classify(_ message: String) -> (TransportError.Code, TransportError.SecureConnectionFailure?) {
        let text = message.lowercased()
        if certificate.contains(where: text.contains) { return (.secureConnectionFailed, .certificate) }
        if handshake.contains(where: text.contains) { return (.secureConnectionFailed, .handshake) }
        if cutShort.contains(where: text.contains) { return (.connectionLost, nil) }
        if badFraming.contains(where: text.contains) { return (.badServerResponse, nil) }
        return (.other, nil)
    }
}
