import Foundation
import NetworkingHTTP

/// Backpressure both ways (loop thread): receiving pauses while the reader's buffer is full, sending while the
/// request body has nothing ready; libcurl is told the two as one set of pause bits.
extension CurlTransfer {
    /// Hands `chunk` to the reader; `false` when the reader has gone (the transfer must stop).
    func deliver(_ chunk: Data, to body: BodyBuffer) -> Bool {
        if body.yield(chunk) { return true }
        if body.isTerminated { return false }
        // Full: the chunk is kept, and receiving pauses until the reader drains half the buffer.
        pausedReceiving = true
        applyPause()
        return true
    }

    func resumeReceiving() {
        guard pausedReceiving else { return }
        pausedReceiving = false
        applyPause()
    }

    func resumeSending() {
        guard pausedSending else { return }
        pausedSending = false
        applyPause()
    }

    func applyPause() {
        let bits = (pausedReceiving ? CurlOption.pauseReceive : 0) | (pausedSending ? CurlOption.pauseSend : 0)
        _ = api.pointee.easy_pause(easy, bits)
    }
}
