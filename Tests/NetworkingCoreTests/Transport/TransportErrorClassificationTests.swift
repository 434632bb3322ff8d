import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// How a failure Foundation reports becomes a ``TransportError`` code: Apple's precise codes, and on Linux libcurl's
/// messages under `URLError.unknown` (-1). Messages are the ones this machine's libcurl printed against the fault
/// server, plus others libcurl prints for the same failures.
@Suite struct TransportErrorClassificationTests {
    struct Row: Sendable, CustomStringConvertible {
        let urlErrorCode: Int
        let message: String
        let code: TransportError.Code
        let tls: TransportError.SecureConnectionFailure?
        var description: String { "\(urlErrorCode) \(message)" }
    }

    static let linuxMessages: [Row] = [
        // A body cut short of its length or its last chunk: the connection was lost mid-response.
        Row(
            urlErrorCode: -1, message: "transfer closed with 90 bytes remaining to read", code: .connectionLost,
            tls: nil),
        Row(
            urlErrorCode: -1, message: "transfer closed with outstanding read data remaining", code: .connectionLost,
            tls: nil),
        // Broken chunked framing: not HTTP.
        Row(
            urlErrorCode: -1, message: "Illegal or missing hexadecimal sequence in chunked-encoding",
            code: .badServerResponse, tls: nil),
        // Certificates.
        Row(
            urlErrorCode: -1, message: "SSL certificate problem: self-signed certificate",
            code: .secureConnectionFailed,
            tls: .certificate),
        Row(
            urlErrorCode: -1, message: "SSL certificate problem: unable to get local issuer certificate",
            code: .secureConnectionFailed, tls: .certificate),
        Row(
            urlErrorCode: -1, message: "SSL certificate problem: certificate has expired",
            code: .secureConnectionFailed,
            tls: .certificate),
        Row(
            urlErrorCode: -1, message: "SSL: no alternative certificate subject name matches target host name 'a.test'",
            code: .secureConnectionFailed, tls: .certificate),
        // Handshakes.
        Row(
            urlErrorCode: -1, message: "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:8080 ",
            code: .secureConnectionFailed, tls: .handshake),
        Row(
            urlErrorCode: -1, message: "error:0A00010B:SSL routines::wrong version number",
            code: .secureConnectionFailed,
            tls: .handshake),
        Row(
            urlErrorCode: -1, message: "error:0A000410:SSL routines::sslv3 alert handshake failure",
            code: .secureConnectionFailed, tls: .handshake),
        // A TLS 1.3 server's refusal of the client's certificate, read after the handshake: still a handshake.
        Row(
            urlErrorCode: -1,
            message: "OpenSSL SSL_read: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0",
            code: .secureConnectionFailed, tls: .handshake),
        // TLS closed without its closing alert mid-response: the connection was lost, nothing about TLS failed.
        Row(
            urlErrorCode: -1,
            message: "OpenSSL SSL_read: error:0A000126:SSL routines::unexpected eof while reading, errno 0",
            code: .connectionLost, tls: nil),
        // Malformed responses stay `other`: not retryable, and not mistaken for anything else.
        Row(urlErrorCode: -1, message: "Header without colon", code: .other, tls: nil),
        Row(urlErrorCode: -1, message: "Failed writing header", code: .other, tls: nil),
        Row(urlErrorCode: -1, message: "Out of memory", code: .other, tls: nil),
        Row(urlErrorCode: -1, message: "", code: .other, tls: nil),
    ]

    @Test(arguments: linuxMessages)
    func linuxCatchAllIsReadFromLibcurlsMessage(row: Row) {
        let error = TransportError(urlErrorCode: row.urlErrorCode, message: row.message)
        #expect(error.code == row.code)
        #expect(error.secureConnectionFailure == row.tls)
        #expect(error.message == row.message)
        #expect(error.urlErrorCode == row.urlErrorCode)
    }

    static let foundationCodes: [Row] = [
        Row(urlErrorCode: -1004, message: "x", code: .cannotConnect, tls: nil),
        Row(urlErrorCode: -1003, message: "x", code: .cannotFindHost, tls: nil),
        Row(urlErrorCode: -1006, message: "x", code: .cannotFindHost, tls: nil),
        Row(urlErrorCode: -1009, message: "x", code: .notConnected, tls: nil),
        Row(urlErrorCode: -1001, message: "x", code: .timedOut, tls: nil),
        Row(urlErrorCode: -1005, message: "x", code: .connectionLost, tls: nil),
        Row(urlErrorCode: -1011, message: "Empty reply from server", code: .badServerResponse, tls: nil),
        Row(urlErrorCode: -1002, message: "Received HTTP/0.9 when not allowed", code: .badServerResponse, tls: nil),
        Row(urlErrorCode: -1007, message: "x", code: .tooManyRedirects, tls: nil),
        Row(urlErrorCode: -1103, message: "x", code: .responseTooLarge, tls: nil),
        Row(urlErrorCode: -1202, message: "x", code: .secureConnectionFailed, tls: .certificate),
        Row(urlErrorCode: -1201, message: "x", code: .secureConnectionFailed, tls: .certificate),
        Row(urlErrorCode: -1203, message: "x", code: .secureConnectionFailed, tls: .certificate),
        Row(urlErrorCode: -1204, message: "x", code: .secureConnectionFailed, tls: .certificate),
        Row(urlErrorCode: -1200, message: "x", code: .secureConnectionFailed, tls: .handshake),
        Row(urlErrorCode: -1206, message: "x", code: .secureConnectionFailed, tls: .handshake),
        // A precise code wins over a message that says something else.
        Row(urlErrorCode: -1004, message: "SSL certificate problem", code: .cannotConnect, tls: nil),
        Row(urlErrorCode: -1100, message: "x", code: .other, tls: nil),
    ]

    @Test(arguments: foundationCodes)
    func preciseCodesAreMappedOneByOne(row: Row) {
        let error = TransportError(urlErrorCode: row.urlErrorCode, message: row.message)
        #expect(error.code == row.code)
        #expect(error.secureConnectionFailure == row.tls)
    }

    @Test func cancellationIsNotATransportError() {
        #expect(TransportError(URLError(.cancelled)) == nil)
    }

    @Test func theDescriptionNamesWhichPartOfTLSFailed() {
        let error = TransportError(urlErrorCode: -1, message: "SSL certificate problem: self-signed certificate")
        #expect(
            error.description
                == "secureConnectionFailed(certificate): SSL certificate problem: self-signed certificate (URLError -1)"
        )
    }

    @Test func aCutBodyIsRetriedForAGETButNeverForAPOST() {
        // The point of the classification: the default policy acts on it.
        let cut = TransportError(urlErrorCode: -1, message: "transfer closed with 90 bytes remaining to read")
        let now = Date(timeIntervalSince1970: 0)
        #expect(
            RetrySettings.default.decision(method: .get, outcome: .failure(cut), attempt: 1, now: now, random: { 0 })
                == .retry(after: .zero))
        #expect(
            !retried(
                RetrySettings.default.decision(
                    method: .post, outcome: .failure(cut), attempt: 1, now: now, random: { 0 })
            ))
        let tls = TransportError(urlErrorCode: -1, message: "SSL certificate problem: self-signed certificate")
        #expect(
            !retried(
                RetrySettings.default.decision(
                    method: .get, outcome: .failure(tls), attempt: 1, now: now, random: { 0 }))
        )
    }

    private func retried(_ decision: RetrySettings.Decision) -> Bool {
        if case .retry = decision { return true }
        return false
    }
}
