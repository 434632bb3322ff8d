import Foundation
import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ceiling of part 5: a bare `URLSession` data task whose delegate only counts the bytes (no file, no client),
/// on a serial delegate queue like the transport's. Whatever the client does on top, it cannot be faster than this
/// on the same platform.
final class RawSessionDownload: NSObject, URLSessionDataDelegate, Sendable {
    private let received = LockedBox<Int64>(0)
    private let done = DispatchSemaphore(value: 0)

    /// Downloads `url`, counting its bytes; returns the count and the seconds it took.
    static func run(_ url: URL) -> (bytes: Int64, seconds: Double) {
        let counter = RawSessionDownload()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: .ephemeral, delegate: counter, delegateQueue: queue)
        let start = ContinuousClock.now
        session.dataTask(with: url).resume()
        counter.done.wait()
        let elapsed = ContinuousClock.now - start
        session.finishTasksAndInvalidate()
        return (counter.received.current, elapsed.seconds)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        received.withLock { $0 += Int64(data.count) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        done.signal()
    }
}
