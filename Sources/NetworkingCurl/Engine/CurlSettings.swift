import CCurlShim
import Foundation
import NetworkingCore
import NetworkingTLS

/// A transport's configuration turned, once, into what each easy handle is given: the proxy, the authorities as
/// one PEM blob, the pins in libcurl's syntax.
struct CurlSettings: Sendable {
    let http1Only: Bool
    let proxy: CurlTransport.ProxySettings
    /// The PEM text of every trusted authority, when the trust is not the system's alone.
    let authorities: Data?
    /// `sha256//<base64>;...`, when keys are pinned.
    let pins: String?
    /// The client certificate and key, for mutual TLS.
    let identity: CurlTransport.ClientIdentity?

    init(_ configuration: CurlTransport.Configuration, library: CurlLibrary) throws(CurlUnavailableError) {
        http1Only = configuration.httpVersion == .http1_1
        proxy = configuration.proxy
        identity = configuration.clientIdentity
        if identity != nil, library.versionNumber < 0x07_47_00 {
            throw CurlUnavailableError(
                library: configuration.libraryName,
                reason: "libcurl \(library.version) cannot take a client certificate from memory (7.71 or later needed)"
            )
        }
        let trust = configuration.serverTrust
        pins =
            trust.pinnedKeys.isEmpty
            ? nil
            : trust.pinnedKeys.map { "sha256//" + $0.sha256.base64EncodedString() }.sorted().joined(separator: ";")
        guard !trust.certificateAuthorities.isEmpty || !trust.trustsSystemAuthorities else {
            authorities = nil
            return
        }
        guard library.supportsCAInfoBlob else {
            throw CurlUnavailableError(
                library: configuration.libraryName,
                reason: "libcurl \(library.version) cannot take authorities from memory (7.77 or later needed)")
        }
        var pem = Data()
        if trust.trustsSystemAuthorities, let bundle = Self.systemBundle(library) {
            pem.append(bundle)
            pem.append(0x0A)
        }
        for der in trust.certificateAuthorities {
            let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            pem.append(Data("-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n".utf8))
        }
        authorities = pem
    }

    /// The system's bundle, from where this libcurl reads it (CURLINFO_CAINFO) or Debian's place.
    private static func systemBundle(_ library: CurlLibrary) -> Data? {
        var path = "/etc/ssl/certs/ca-certificates.crt"
        if let easy = library.api.pointee.easy_init() {
            var text: UnsafeMutableRawPointer?
            if ncurl_getinfo_pointer(library.api, easy, CurlOption.infoCAInfo, &text) == 0, let text {
                path = String(cString: text.assumingMemoryBound(to: CChar.self))
            }
            library.api.pointee.easy_cleanup(easy)
        }
        return FileManager.default.contents(atPath: path)
    }

    func applyProxy(
        to easy: UnsafeMutableRawPointer, api: UnsafeMutablePointer<ncurl_api>, check: (Int32, String) -> Void
    ) {
        switch proxy {
        case .none:
            // An empty proxy turns off libcurl's reading of the environment.
            check(CurlText.set(api, easy, CurlOption.proxy, ""), "proxy")
        case .environment:
            break
        case .url(let url, let bypass):
            check(CurlText.set(api, easy, CurlOption.proxy, url.absoluteString), "proxy")
            if !bypass.isEmpty {
                check(CurlText.set(api, easy, CurlOption.noProxy, bypass.joined(separator: ",")), "no-proxy")
            }
        }
    }

    func applyTrust(
        to easy: UnsafeMutableRawPointer, api: UnsafeMutablePointer<ncurl_api>, check: (Int32, String) -> Void
    ) {
        if let authorities {
            let result = authorities.withUnsafeBytes {
                ncurl_setopt_blob(api, easy, CurlOption.caInfoBlob, $0.baseAddress, $0.count)
            }
            check(result, "certificate authorities")
            // The blob replaces the bundle file only: a directory of authorities (CURLOPT_CAPATH, /etc/ssl/certs on
            // Debian's libcurl) would still be trusted beside it, every system authority with it. The blob already
            // holds the system's bundle when the policy trusts it, so both go.
            check(ncurl_setopt_pointer(api, easy, CurlOption.caPath, nil), "no authority directory")
            check(ncurl_setopt_pointer(api, easy, CurlOption.caInfo, nil), "no authority file")
        }
        if let pins { check(CurlText.set(api, easy, CurlOption.pinnedPublicKey, pins), "pinned keys") }
        if let identity {
            for (option, pem, what) in [
                (CurlOption.sslCertBlob, identity.certificatePEM, "client certificate"),
                (CurlOption.sslKeyBlob, identity.privateKeyPEM, "client key"),
            ] {
                let result = pem.withUnsafeBytes { ncurl_setopt_blob(api, easy, option, $0.baseAddress, $0.count) }
                check(result, what)
            }
        }
    }
}

/// Passing Swift strings to libcurl's string options (libcurl copies them).
enum CurlText {
    static func set(
        _ api: UnsafeMutablePointer<ncurl_api>, _ easy: UnsafeMutableRawPointer, _ option: Int32, _ value: String
    )
        -> Int32
    {
        value.withCString { ncurl_setopt_pointer(api, easy, option, $0) }
    }
}
