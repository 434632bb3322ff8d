import NetworkingCore

/// libcurl's result codes, classified into the same `TransportError` cases as the URLSession transport's
/// failures. libcurl's code and words stay in the message for diagnosis.
enum CurlFailure {
    /// The error for a transfer that ended with `code`.
    static func error(code: Int32, message: String) -> TransportError {
        let (kind, tls) = classify(code, message: message)
        return TransportError(kind, "\(message) (libcurl error \(code))", secureConnectionFailure: tls)
    }

    /// By code where the code is precise; by libcurl's words, read as the URLSession transport reads them on Linux,
    /// where one code covers several failures (a receive error is a lost connection unless it names broken chunked
    /// framing or a TLS alert, which TLS 1.3 servers send on the first read to refuse the client's certificate; a
    /// weird reply is classified by what it says).
    static func classify(_ code: Int32, message: String) -> (
        TransportError.Code, TransportError.SecureConnectionFailure?
    ) {
        switch code {
        case 5, 6: (.cannotFindHost, nil)  // COULDNT_RESOLVE_PROXY, COULDNT_RESOLVE_HOST
        case 7, 97: (.cannotConnect, nil)  // COULDNT_CONNECT, PROXY (the proxy refused the tunnel)
        case 28: (.timedOut, nil)  // OPERATION_TIMEDOUT
        // PARTIAL_FILE (a body cut short), SEND_ERROR, RECV_ERROR, SEND_FAIL_REWIND, HTTP2, HTTP2_STREAM
        case 18, 55, 56, 65, 16, 92:
            switch LibcurlMessage.classify(message) {
            case (.badServerResponse, _): (.badServerResponse, nil)
            case (.secureConnectionFailed, _) where LibcurlMessage.isAlert(message) || isUnnamedAlert(message):
                (.secureConnectionFailed, .handshake)
            default: (.connectionLost, nil)
            }
        // GOT_NOTHING, BAD_CONTENT_ENCODING, UNSUPPORTED_PROTOCOL (HTTP/0.9 or garbage where a status line goes)
        case 52, 61, 1: (.badServerResponse, nil)
        case 47: (.tooManyRedirects, nil)
        case 63: (.responseTooLarge, nil)  // FILESIZE_EXCEEDED
        // PEER_FAILED_VERIFICATION, SSL_CACERT_BADFILE, SSL_PINNEDPUBKEYNOTMATCH, SSL_INVALIDCERTSTATUS
        case 60, 77, 90, 91: (.secureConnectionFailed, .certificate)
        // SSL_CONNECT_ERROR, SSL_ENGINE_*, SSL_CERTPROBLEM, SSL_CIPHER, SSL_SHUTDOWN_FAILED, SSL_CLIENTCERT
        case 35, 53, 54, 58, 59, 80, 98: (.secureConnectionFailed, .handshake)
        default: LibcurlMessage.classify(message)
        }
    }

    /// Whether the message reports a received TLS alert that the TLS library has no words for: `reason(1116)`, the
    /// alert's number plus SSL_AD_REASON_OFFSET (1000). LibreSSL, which macOS's libcurl is built on (3.3.6), names
    /// the alerts up to 100 only (`ssl_err.c`); a TLS 1.3 alert it receives, such as `certificate_required` (116),
    /// is pushed as SSL_AD_REASON_OFFSET + 116 (`tls13_lib.c`, `tls13_alert_received_cb`) and printed as
    /// `reason(%d)` (`err.c`): read at libressl-v3.3.6. OpenSSL says `tlsv13 alert certificate required`.
    static func isUnnamedAlert(_ message: String) -> Bool {
        let bytes = Array(message.utf8)
        let prefix = Array("reason(".utf8)
        var start = 0
        while start + prefix.count < bytes.count {
            defer { start += 1 }
            guard bytes[start..<start + prefix.count].elementsEqual(prefix) else { continue }
            var number = 0
            var end = start + prefix.count
            while end < bytes.count, end - start - prefix.count < 4, (0x30...0x39).contains(bytes[end]) {
                number = number * 10 + Int(bytes[end] - 0x30)
                end += 1
            }
            // An alert's number is one octet (RFC 8446 §6).
            if end < bytes.count, bytes[end] == UInt8(ascii: ")"), (1001...1255).contains(number) { return true }
        }
        return false
    }
}
