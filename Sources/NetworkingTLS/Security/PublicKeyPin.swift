import Foundation
import NetworkingHTTP

/// The SHA-256 digest of a server's SubjectPublicKeyInfo: the `pin-sha256` of RFC 7469 and OkHttp's
/// `CertificatePinner`, written `sha256/<base64>`.
///
/// Pin a key rather than a certificate: a renewed certificate keeps its key. Pin a backup key too, or a key
/// rotation locks every installed app out. Get the value of a live server with
/// `openssl s_client -connect HOST:443 </dev/null | openssl x509 -pubkey -noout | openssl pkey -pubin -outform der
/// | openssl dgst -sha256 -binary | base64`, or from a certificate with `init(certificate:)`.
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32-byte SHA-256 digest of the DER SubjectPublicKeyInfo.
    public let sha256: Data

    /// A pin from its text: `sha256/<base64>` or the bare base64 of the 32-byte digest.
    ///
    /// - Parameter text: The pin as OkHttp, RFC 7469 and the `openssl` recipe above write it.
    /// - Returns: `nil` when the text is not the base64 of 32 bytes.
    public init?(_ text: String) {
        let base64 = text.hasPrefix("sha256/") ? String(text.dropFirst("sha256/".count)) : text
        guard let digest = Data(base64Encoded: base64), digest.count == 32 else { return nil }
        sha256 = digest
    }

    /// The pin of the public key in a DER-encoded X.509 certificate.
    ///
    /// - Parameter certificate: The certificate, DER-encoded (a PEM file's base64 body, decoded).
    /// - Returns: `nil` when `certificate` is not a DER certificate this parser can read.
    public init?(certificate: Data) {
        guard let keyInfo = CertificateDER.subjectPublicKeyInfo(of: certificate) else { return nil }
        sha256 = SHA256.digest(keyInfo)
    }

    /// `sha256/<base64>`.
    public var description: String { "sha256/" + sha256.base64EncodedString() }
}
