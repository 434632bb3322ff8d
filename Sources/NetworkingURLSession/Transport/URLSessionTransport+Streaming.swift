import Foundation
import NetworkingHTTP
import NetworkingCore
import NetworkingTLS

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Backpressure for the body: on Apple platforms, a full buffer suspends the data task, which stops reading the
/// socket until the reader drains half of it. swift-corelibs-foundation (Linux) implements `suspend()` by removing
/// the transfer from libcurl's multi handle, which ends it (a resumed task starts over), and delivers data to the
/// delegate without flow control, so on Linux the buffer is a soft bound: the delegate must not wait for a reader,
/// since the network side of every session is one shared queue. A download has no reader to wait for: the client
/// writes each chunk to its file within the delegate's call, and the delegate queue holds the network side back
/// while 64 reads are queued (`URLSessionTransportDelegateQueue`, at most 20 ms at a time), so a download goes at the
/// disk's pace in constant memory on Linux too. The libcurl transport pauses the transfer itself on every platform.
extension URLSessionTransportDelegate {
    /// Suspends `task` while its reader catches up (Apple platforms).
    func pause(_ task: URLSessionTask) {
        // Apple docs checked: URLSessionTask.suspend() and resume() (developer.apple.com/documentation/foundation/
        // urlsessiontask/suspend()): a suspended data task stops reading; make portability builds it on Linux.
        #if !canImport(FoundationNetworking) || NETWORKING_APPLE_PATHS
            let pausing = withCall(of: task) { call, _ in
                guard !call.paused else { return false }
                call.paused = true
                return true
            }
            guard pausing == true else { return }
            // The reader may have drained the buffer since it refused the chunk, its call to resume finding nothing
            // paused yet: suspend only if the buffer is still full, on the queue that also runs every resume.
            onQueue { [self] in
                let stillFull = withCall(of: task) { call, _ -> Bool in
                    guard call.paused else { return false }
                    if call.feed?.buffer.isFull == true { return true }
                    call.paused = false
                    return false
                }
                if stillFull == true { task.suspend() }
            }
        #endif
    }

    /// Resumes the task of a call whose reader had paused it.
    func resume(_ id: UInt64) {
        let task = table.withLock { table -> URLSessionTask? in
            guard table.calls[id]?.paused == true else { return nil }
            table.calls[id]?.paused = false
            return table.calls[id]?.task
        }
        if let task { onQueue { task.resume() } }
    }
}
