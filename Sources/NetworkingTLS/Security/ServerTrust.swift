import Foundation
import NetworkingHTTP

/// Which servers the default transport trusts: the system's certificate authorities (the default), your own
/// authorities, and public-key pins.
///
/// The transport evaluates it on every TLS connection: the chain must lead to one of the trusted authorities, and,
/// when pins are set, a pinned key must appear: on Apple platforms (the Foundation transport) in any certificate of the chain; on
/// the libcurl transport (Linux's default) in the server's own certificate, which libcurl checks itself. A refused
/// server fails the call with `TransportError/Code/secureConnectionFailed` (`TransportError/SecureConnectionFailure/certificate`),
/// which the default retry policy never retries.
///
/// **Linux's Foundation transport.** FoundationNetworking has no per-session trust: it lets libcurl trust the
/// system's bundle (`/etc/ssl/certs/ca-certificates.crt` on Debian and Ubuntu) and nothing else, and exposes no way
/// to check a key. With that transport, trust a private authority by adding it to the system store (copy it to
/// `/usr/local/share/ca-certificates/NAME.crt` and run `update-ca-certificates`, in the image of a container);
/// pins cannot be checked, and a policy other than ``system`` refuses every request before any I/O rather than
/// skip a check it was asked to make (``isSupported`` tells). The libcurl transport applies every policy.
public struct ServerTrust: Sendable, Hashable {
    /// Certificate authorities to trust, each a DER-encoded certificate (see ``certificates(pem:)``).
    public var certificateAuthorities: [Data]
    /// Whether the system's own authorities stay trusted beside ``certificateAuthorities``. Default: `true`;
    /// `false` trusts only yours (a private API that must never be reached through a public authority).
    public var trustsSystemAuthorities: Bool
    /// Keys of which at least one must appear in the server's chain. Empty: no pinning.
    public var pinnedKeys: Set<PublicKeyPin>

    /// The system's authorities, no pins: what every transport uses unless told otherwise.
    public static let system = ServerTrust()

    /// Creates a trust policy.
    ///
    /// - Parameters:
    ///   - certificateAuthorities: DER-encoded authority certificates to trust.
    ///   - trustsSystemAuthorities: Whether the system's authorities stay trusted too.
    ///   - pinnedKeys: Keys of which one must appear in the server's chain; empty for none.
    public init(
        certificateAuthorities: [Data] = [], trustsSystemAuthorities: Bool = true, pinnedKeys: Set<PublicKeyPin> = []
    ) {
        self.certificateAuthorities = certificateAuthorities
        self.trustsSystemAuthorities = trustsSystemAuthorities
        self.pinnedKeys = pinnedKeys
    }

    /// Whether this is the system default, the only policy the Foundation transport can apply on Linux.
    public var isSystem: Bool { self == .system }

    /// Whether this platform's Foundation transport can apply policies other than ``system``: `true` on Apple
    /// platforms, `false` on Linux, where the libcurl transport (the default there) applies them instead (see the
    /// type's documentation).
    public static var isSupported: Bool {
        // Apple docs checked: SecTrustSetAnchorCertificates, SecTrustEvaluateWithError, SecTrustCopyCertificateChain
        // (developer.apple.com/documentation/security/trust), on every Apple platform; Linux has no Security framework.
        #if canImport(Security)
            true
        #else
            false
        #endif
    }

    /// Whether a chain that the authorities accepted also satisfies the pins: with no pins, always; otherwise
    /// when some certificate of `chain` (DER-encoded, any order) carries a pinned key.
    ///
    /// - Parameter chain: The server's certificates, DER-encoded.
    /// - Returns: `true` when the pins allow the chain.
    public func pinsAllow(chain: [Data]) -> Bool {
        guard !pinnedKeys.isEmpty else { return true }
        return chain.contains { certificate in
            PublicKeyPin(certificate: certificate).map(pinnedKeys.contains) ?? false
        }
    }

    /// The DER certificates in PEM text (`-----BEGIN CERTIFICATE-----` blocks; anything else is skipped). A
    /// block's base64 is decoded, not parsed: one that holds no certificate is refused by the TLS engine at the
    /// first connection (`secureConnectionFailed`), not here.
    ///
    /// - Parameter pem: The contents of a `.pem` or `.crt` file.
    /// - Returns: Each certificate's DER bytes, in the order of the text.
    public static func certificates(pem: String) -> [Data] {
        let begin = "-----BEGIN CERTIFICATE-----"
        let end = "-----END CERTIFICATE-----"
        var result: [Data] = []
        var rest = Substring(pem)
        while let start = rest.range(of: begin), let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex)
        {
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            if let der = Data(base64Encoded: String(body)) { result.append(der) }
            rest = rest[stop.upperBound...]
        }
        return result
    }
}
