import CCurlShim
import Foundation

/// The engine alone, for the benchmarks: `curl_easy_perform` in a loop on one reused easy handle (its connection
/// kept alive), on the libcurl the transport loads, with no client, no thread hand-over and no Swift body. What the
/// transport is measured against (`curl-vs-engine`).
package enum CurlBareLoop {
    /// Sends `count` GETs to `url` one after another on the calling thread; returns requests per second.
    ///
    /// - Throws: ``CurlUnavailableError`` when libcurl cannot be loaded, or a description of a failed request.
    package static func sequentialGets(url: String, count: Int) throws -> Double {
        let library = try CurlLibrary.system.get()
        let api = library.api
        guard let easy = api.pointee.easy_init() else { throw CurlUnavailableError(library: "", reason: "easy_init") }
        defer { api.pointee.easy_cleanup(easy) }
        _ = CurlText.set(api, easy, CurlOption.url, url)
        _ = ncurl_setopt_long(api, easy, CurlOption.noSignal, 1)
        _ = CurlText.set(api, easy, CurlOption.proxy, "")
        _ = ncurl_setopt_data_fn(api, easy, CurlOption.writeFunction, discard)
        let start = ContinuousClock.now
        for _ in 0..<count {
            let result = api.pointee.easy_perform(easy)
            guard result == 0 else {
                throw CurlUnavailableError(library: library.version, reason: "request failed: \(library.describe(result))")
            }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(count) / seconds
    }

    private static let discard: ncurl_data_fn = { _, size, count, _ in size * count }
}
