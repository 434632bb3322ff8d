import CCurlShim
import Foundation

/// The engine alone, for the benchmarks, on the libcurl the transport loads, with no client, no thread hand-over
/// and no Swift body: one reused easy handle (its connection kept alive) driven to completion request after request,
/// either by `curl_easy_perform` or, as the transport drives it, through a multi handle and `curl_multi_poll`. The
/// multi loop is what the transport is measured against (`curl-vs-engine`).
package enum CurlBareLoop {
    /// Sends `count` GETs to `url` one after another on the calling thread; returns requests per second.
    ///
    /// - Throws: ``CurlUnavailableError`` when libcurl cannot be loaded, or a description of a failed request.
    package static func sequentialGets(url: String, count: Int, multi useMulti: Bool = true) throws -> Double {
        let library = try CurlLibrary.system.get()
        let api = library.api
        guard let easy = api.pointee.easy_init() else { throw CurlUnavailableError(library: "", reason: "easy_init") }
        defer { api.pointee.easy_cleanup(easy) }
        _ = CurlText.set(api, easy, CurlOption.url, url)
        _ = ncurl_setopt_long(api, easy, CurlOption.noSignal, 1)
        _ = CurlText.set(api, easy, CurlOption.proxy, "")
        _ = ncurl_setopt_data_fn(api, easy, CurlOption.writeFunction, discard)
        let multi = useMulti ? api.pointee.multi_init() : nil
        defer { if let multi { _ = api.pointee.multi_cleanup(multi) } }
        let start = ContinuousClock.now
        for _ in 0..<count {
            let result = multi.map { perform(easy, on: $0, api) } ?? api.pointee.easy_perform(easy)
            guard result == 0 else {
                throw CurlUnavailableError(
                    library: library.version, reason: "request failed: \(library.describe(result))")
            }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(count) / seconds
    }

    /// Sends `count` GETs to `url` with `inFlight` transfers at a time on one multi handle, on the calling thread,
    /// as the transport's loop drives them but with no Swift between libcurl and the network: each easy handle is
    /// added again as soon as its transfer ends (its connection kept alive). Returns requests per second and the
    /// thread's CPU time per request in microseconds (user plus system).
    ///
    /// - Throws: ``CurlUnavailableError`` when libcurl cannot be loaded, or a description of a failed request.
    package static func concurrentGets(url: String, count: Int, inFlight: Int) throws -> (
        requestsPerSecond: Double, cpuMicroseconds: Double
    ) {
        let library = try CurlLibrary.system.get()
        let api = library.api
        guard let multi = api.pointee.multi_init() else {
            throw CurlUnavailableError(library: "", reason: "multi_init")
        }
        defer { _ = api.pointee.multi_cleanup(multi) }
        var handles: [UnsafeMutableRawPointer] = []
        defer {
            for easy in handles {
                _ = api.pointee.multi_remove_handle(multi, easy)
                api.pointee.easy_cleanup(easy)
            }
        }
        for _ in 0..<inFlight {
            guard let easy = api.pointee.easy_init() else {
                throw CurlUnavailableError(library: "", reason: "easy_init")
            }
            handles.append(easy)
            _ = CurlText.set(api, easy, CurlOption.url, url)
            _ = ncurl_setopt_long(api, easy, CurlOption.noSignal, 1)
            _ = CurlText.set(api, easy, CurlOption.proxy, "")
            _ = ncurl_setopt_data_fn(api, easy, CurlOption.writeFunction, discard)
        }
        let cpuBefore = threadCPUSeconds()
        let start = ContinuousClock.now
        var started = 0
        var finished = 0
        for easy in handles where started < count {
            _ = api.pointee.multi_add_handle(multi, easy)
            started += 1
        }
        var running: Int32 = 0
        var ready: Int32 = 0
        while finished < count {
            _ = api.pointee.multi_perform(multi, &running)
            var done: UnsafeMutableRawPointer?
            var result: Int32 = 0
            var any = false
            while ncurl_multi_next_done(api, multi, &done, &result) == 1, let easy = done {
                any = true
                guard result == 0 else {
                    throw CurlUnavailableError(
                        library: library.version, reason: "request failed: \(library.describe(result))")
                }
                finished += 1
                _ = api.pointee.multi_remove_handle(multi, easy)
                if started < count {
                    _ = api.pointee.multi_add_handle(multi, easy)
                    started += 1
                }
            }
            if !any { _ = api.pointee.multi_poll(multi, nil, 0, 1000, &ready) }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (Double(count) / seconds, (threadCPUSeconds() - cpuBefore) / Double(count) * 1e6)
    }

    /// User plus system CPU time of the calling thread, in seconds.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// One transfer through `multi`, polled to its end; returns its result code.
    private static func perform(
        _ easy: UnsafeMutableRawPointer, on multi: UnsafeMutableRawPointer, _ api: UnsafeMutablePointer<ncurl_api>
    ) -> Int32 {
        _ = api.pointee.multi_add_handle(multi, easy)
        defer { _ = api.pointee.multi_remove_handle(multi, easy) }
        var running: Int32 = 1
        var ready: Int32 = 0
        var done: UnsafeMutableRawPointer?
        var result: Int32 = 0
        while true {
            _ = api.pointee.multi_perform(multi, &running)
            if ncurl_multi_next_done(api, multi, &done, &result) == 1 { return result }
            _ = api.pointee.multi_poll(multi, nil, 0, 1000, &ready)
        }
    }

    private static let discard: ncurl_data_fn = { _, size, count, _ in size * count }
}
