import CCurlShim
import Foundation
import NetworkingHTTP

/// One loaded libcurl: its functions, found at run time (`dlopen`/`dlsym`), and `curl_global_init` run once.
///
/// The table is written once, before the value is shared, and only read after: the class is immutable.
final class CurlLibrary: @unchecked Sendable {
    /// The functions of the library.
    let api: UnsafeMutablePointer<ncurl_api>
    /// libcurl's version number, such as `0x075801` for 7.88.1.
    let versionNumber: UInt32
    /// libcurl's version, such as `7.88.1`.
    let version: String
    /// The content codings this libcurl decodes, lower-cased (`identity` and its alias `none` always; `gzip`,
    /// `x-gzip` and `deflate` with zlib; `br` with brotli; `zstd` with zstd).
    let decodedCodings: Set<String>

    /// The name of libcurl's runtime library (its ABI has been version 4 since 2006): `libcurl.so.4` on Linux;
    /// on macOS the copy the system ships, `/usr/lib/libcurl.4.dylib` (the library `/usr/bin/curl` links:
    /// `otool -L /usr/bin/curl` on a Mac).
    static let defaultName = CurlTransport.Configuration.defaultLibraryName

    /// The library every `CurlTransport` uses unless told otherwise: loaded, and initialized, once per process.
    static let system: Result<CurlLibrary, CurlUnavailableError> = load(defaultName)

    /// The library named `name`: `system` for the default one, a fresh look-up (not initialized twice) for another.
    static func named(_ name: String) -> Result<CurlLibrary, CurlUnavailableError> {
        name == defaultName ? system : load(name)
    }

    private static func load(_ name: String) -> Result<CurlLibrary, CurlUnavailableError> {
        do throws(CurlUnavailableError) {
            return .success(try CurlLibrary(name: name))
        } catch {
            return .failure(error)
        }
    }

    private init(name: String) throws(CurlUnavailableError) {
        let api = UnsafeMutablePointer<ncurl_api>.allocate(capacity: 1)
        api.initialize(to: ncurl_api())
        var message = [CChar](repeating: 0, count: 512)
        let status = ncurl_open(name, api, &message, Int32(message.count))
        guard status == 0 else {
            api.deallocate()
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw CurlUnavailableError(library: name, reason: text)
        }
        self.api = api
        versionNumber = ncurl_version_number(api)
        version = String(cString: ncurl_version_text(api))
        let features = ncurl_version_features(api)
        var codings: Set<String> = ["identity", "none"]
        if features & (1 << 3) != 0 { codings.formUnion(["gzip", "x-gzip", "deflate"]) }  // CURL_VERSION_LIBZ
        if features & (1 << 23) != 0 { codings.insert("br") }  // CURL_VERSION_BROTLI
        if features & (1 << 26) != 0 { codings.insert("zstd") }  // CURL_VERSION_ZSTD
        decodedCodings = codings
        guard versionNumber >= Self.oldestVersion else {
            throw CurlUnavailableError(library: name, reason: "libcurl \(version) is older than 7.68.0")
        }
        // CURL_GLOBAL_ALL (SSL and Win32 set-up); libcurl counts calls, so FoundationNetworking's own is harmless.
        let initialized = api.pointee.global_init(3)
        guard initialized == 0 else {
            throw CurlUnavailableError(library: name, reason: "curl_global_init failed with code \(initialized)")
        }
    }

    /// 7.68.0: `curl_multi_poll` (7.66) and `curl_multi_wakeup` (7.68), which the loop needs.
    static let oldestVersion: UInt32 = 0x07_44_00
    /// 7.77.0: `CURLOPT_CAINFO_BLOB`, for authorities in memory.
    static let caInfoBlobVersion: UInt32 = 0x07_4D_00

    /// Whether this libcurl takes certificate authorities from memory.
    var supportsCAInfoBlob: Bool { versionNumber >= Self.caInfoBlobVersion }

    /// 8.5.0: libcurl decides at the `Content-Encoding` field whether to decode, before the transport sees the
    /// field, so an unknown coding can no longer be let through untouched once the head arrives.
    static let earlyDecodingDecisionVersion: UInt32 = 0x08_05_00

    /// Whether a transfer can switch decoding off once its head is in (libcurl before 8.5 decides per body write).
    var decidesDecodingPerWrite: Bool { versionNumber < Self.earlyDecodingDecisionVersion }

    /// libcurl's text for an error code.
    func describe(_ code: Int32) -> String {
        guard let text = api.pointee.easy_strerror(code) else { return "libcurl error \(code)" }
        return String(cString: text)
    }
}
