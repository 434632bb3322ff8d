import CCurlShim

/// The system's name for the thread running the caller, such as `NetworkingCurl` on a libcurl transport's loop
/// thread (read from the thread itself, not from Foundation's `Thread`, which does not know it).
package func currentThreadName() -> String {
    var name = [CChar](repeating: 0, count: 64)
    _ = ncurl_thread_name(&name, UInt(name.count))
    return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Whether Swift's task executors exist here: always on Linux, from macOS 15 and iOS 18 on Apple platforms (tests
/// of `CurlTransport.executor` are disabled, and reported as skipped, where they do not).
package var hasTaskExecutors: Bool {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) { return true }
    return false
}
