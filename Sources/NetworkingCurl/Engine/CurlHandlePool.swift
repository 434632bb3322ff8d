import CCurlShim

/// Easy handles of ended transfers, reset (`curl_easy_reset`) for the next one: a transfer takes one rather than
/// making its own (`curl_easy_init`: a 5 KiB `calloc` and libcurl's defaults) and a released transfer gives its back
/// rather than freeing it (`curl_easy_cleanup`). Each comes with the error buffer set on it.
///
/// A reset handle keeps what libcurl keeps across a reset (live connections, the TLS session and DNS caches) and
/// forgets every option, so the next transfer sets its own as on a new handle (``CurlTransfer/configure(_:)`` sets
/// every one the transport uses, the transport's trust, pins, identity and proxy included, the same for every handle
/// of one loop). Only a handle whose transfer libcurl finished cleanly comes back (``CurlTransfer/release()``): one
/// stopped midway may still hold a paused direction or bytes held back for a paused reader, which a reset does not
/// clear, so it is freed. A WebSocket's connect-only handle never comes here (`CurlWebSocket` makes and frees its
/// own). At most ``limit`` wait here; a call waiting its turn holds none. A reset does not free the buffers a
/// handle allocated as it went (libcurl 7.x keeps its 16 KiB receive buffer and, once it uploaded, its 64 KiB upload
/// buffer until `curl_easy_cleanup`), so idle handles hold up to about 5 MiB after a burst of 64 uploads; libcurl 8
/// lends transfers the multi handle's buffers instead. Any thread: transfers are set up on their callers' threads
/// and released on the loop's, or on the caller's when they never entered the loop (a failed set-up, a loop that
/// had stopped).
final class CurlHandlePool: @unchecked Sendable {
    /// An easy handle and the buffer libcurl writes its error text to (CURLOPT_ERRORBUFFER, CURL_ERROR_SIZE bytes).
    struct Handle {
        let easy: UnsafeMutableRawPointer
        let errorBuffer: UnsafeMutablePointer<CChar>
    }

    /// The most handles kept: enough for every transfer of a busy transport to find one.
    static let limit = 64
    static let errorBufferSize = 256

    private let api: UnsafeMutablePointer<ncurl_api>
    private let spare = LockedBox((handles: [Handle](), closed: false))

    init(api: UnsafeMutablePointer<ncurl_api>) {
        self.api = api
    }

    /// How many handles are kept now.
    var keptCount: Int { spare.withLock { $0.handles.count } }

    /// A handle with every option at its default and an empty error text; `nil` when libcurl cannot make one.
    func take() -> Handle? {
        if let handle = spare.withLock({ $0.handles.popLast() }) {
            handle.errorBuffer[0] = 0
            return handle
        }
        guard let easy = api.pointee.easy_init() else { return nil }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Self.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: Self.errorBufferSize)
        return Handle(easy: easy, errorBuffer: errorBuffer)
    }

    /// Takes back the handle of a transfer that left the engine (out of the multi handle): reset and kept, or freed
    /// when enough are kept or the loop has stopped.
    func give(_ handle: Handle) {
        api.pointee.easy_reset(handle.easy)
        let kept = spare.withLock { spare -> Bool in
            guard !spare.closed, spare.handles.count < Self.limit else { return false }
            spare.handles.append(handle)
            return true
        }
        if !kept { free(handle) }
    }

    /// Frees every kept handle, and from now on each given back (the loop has stopped).
    func close() {
        let handles = spare.withLock { spare in
            spare.closed = true
            defer { spare.handles = [] }
            return spare.handles
        }
        for handle in handles { free(handle) }
    }

    /// Frees a handle that must not be reused (its transfer did not end cleanly).
    func free(_ handle: Handle) {
        api.pointee.easy_cleanup(handle.easy)
        handle.errorBuffer.deallocate()
    }
}
