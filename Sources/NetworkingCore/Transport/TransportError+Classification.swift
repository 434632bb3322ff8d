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
    /// | `-1005` connection lost; `-1`: "transfer closed with …" (a body cut short of its length), "unexpected eof" (TLS closed without its closing alert) | ``Code/connectionLost`` |
    /// | `-1011`, `-1014`, `-1017`, `-1002`; `-1`: a broken chunked encoding | ``Code/badServerResponse`` |
    /// | `-1007`, `-1010` | ``Code/tooManyRedirects`` |
    /// | `-1103` | ``Code/responseTooLarge`` |
    /// | `-1201`…`-1204`; `-1`: "SSL certificate problem", a host name mismatch | ``Code/secureConnectionFailed``, certificate |
    /// | `-1200`, `-1205`, `-1206`; `-1`: "SSL_connect", "SSL routines", a TLS alert (also one that arrives on the first read, as TLS 1.3 servers send a refusal of the client's certificate) | ``Code/secureConnectionFailed``, handshake |
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
    ///
    /// A fatal alert from the server is a refusal whenever it arrives: under TLS 1.3 the server judges the client's
    /// certificate after the client has finished its side of the handshake, so its refusal (`tlsv13 alert
    /// certificate required`, `alert unknown ca`, `alert bad certificate`) comes on the first read, where libcurl
    /// reports a receive error. OpenSSL names received alerts `sslv3 alert …`, `tlsv1 alert …` and `tlsv13 alert …`;
    /// GnuTLS says `A TLS fatal alert has been received`.
    package static let handshake = [
        "ssl_connect", "ssl routines", "ssl_error", "ssl connect error", "tls connect error", "wrong version number",
        "alert handshake failure", "alert protocol version", "unsupported protocol", "no cipher", "sslv3 alert",
        "tlsv1 alert", "tlsv13 alert", "fatal alert", "ssl: couldn't", "unknown ssl protocol",
    ]
    /// A TLS connection the server closed without its closing alert (`unexpected eof while reading`): the connection
    /// was lost, as a plain one closed mid-response is; it says nothing about certificates or the handshake.
    package static let closedWithoutAlert = ["unexpected eof"]
    /// A body that stopped before its announced end: `transfer closed with 90 bytes remaining to read`,
    /// `transfer closed with outstanding read data remaining` (CURLE_PARTIAL_FILE, a chunked body cut off).
    package static let cutShort = ["transfer closed with", "partial file"]
    /// Broken chunked framing: the server answered something that is not HTTP.
    package static let badFraming = ["chunked-encoding", "chunked encoding", "malformed encoding"]

    /// Whether the message reports a TLS alert received from the peer (a refusal, not a lost connection).
    package static func isAlert(_ message: String) -> Bool {
        message.lowercased().contains("alert")
    }

    package static func classify(_ message: String) -> (TransportError.Code, TransportError.SecureConnectionFailure?) {
        let text = message.lowercased()
        if closedWithoutAlert.contains(where: text.contains) { return (.connectionLost, nil) }
        if certificate.contains(where: text.contains) { return (.secureConnectionFailed, .certificate) }
        if handshake.contains(where: text.contains) { return (.secureConnectionFailed, .handshake) }
        if cutShort.contains(where: text.contains) { return (.connectionLost, nil) }
        if badFraming.contains(where: text.contains) { return (.badServerResponse, nil) }
        return (.other, nil)
    }
}
