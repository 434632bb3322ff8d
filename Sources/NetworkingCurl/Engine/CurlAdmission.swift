/// Which transfers are in the engine and which wait their turn, per origin (loop thread only).
///
/// libcurl queues a transfer beyond `CURLMOPT_MAX_HOST_CONNECTIONS` itself, but only after it has allocated the
/// transfer's receive buffer (16 KiB) for the connection it waits for: 10,000 calls started at once would hold
/// 10,000 buffers. Here a transfer enters the engine only when its origin has room, so one that waits holds
/// nothing of libcurl's (its easy handle is made as it enters, see `CurlLoop.setsUpOnCallerThread(_:)`). Room: the connection limit per host on plain HTTP, whose connections carry one
/// transfer at a time; a hundred times that over HTTPS, where HTTP/2 multiplexes up to 100 streams a connection
/// (libcurl's default), so the engine still decides which of those share a connection.
struct CurlAdmission {
    /// One origin's transfers in the engine, and its line of waiting ones (from `next` on; a slot is emptied as
    /// it is read, so the line holds no transfer that has had its turn).
    private struct Origin {
        var running = 0
        var waiting: [CurlTransfer?] = []
        var next = 0
        /// Transfers in the line that ended while waiting (cancelled, timed out), not yet taken out.
        var ended = 0
    }

    private var origins: [String: Origin] = [:]
    /// The connection limit per host; 0 for none.
    private let perHost: Int

    init(perHost: Int) {
        self.perHost = max(0, perHost)
    }

    /// Whether `transfer` may enter the engine now (then it is counted in); if not, it waits in its origin's line.
    mutating func admit(_ transfer: CurlTransfer) -> Bool {
        guard perHost > 0 else { return true }
        return Self.admit(
            transfer, limit: limit(for: transfer), to: &origins[transfer.origin, default: Origin()])
    }

    /// The line changed where it is (through the dictionary's accessor): a copy would copy the whole line.
    private static func admit(_ transfer: CurlTransfer, limit: Int, to origin: inout Origin) -> Bool {
        if origin.running < limit {
            origin.running += 1
            return true
        }
        origin.waiting.append(transfer)
        return false
    }

    /// `transfer` ended while waiting in its origin's line (its call was cancelled or timed out): once ended
    /// transfers are half the line, they are taken out and released, so a line behind long-lived transfers (streams
    /// holding every place) does not keep every call that gave up on it.
    mutating func waiterEnded(_ transfer: CurlTransfer) {
        guard perHost > 0, origins[transfer.origin] != nil else { return }
        Self.count(endedWaiterIn: &origins[transfer.origin, default: Origin()])
    }

    private static func count(endedWaiterIn origin: inout Origin) {
        origin.ended += 1
        let waiting = origin.waiting.count - origin.next
        guard origin.ended >= 16, origin.ended * 2 >= waiting else { return }
        var kept: [CurlTransfer?] = []
        kept.reserveCapacity(waiting - origin.ended)
        for case let transfer? in origin.waiting[origin.next...] {
            if transfer.isEnded { transfer.release() } else { kept.append(transfer) }
        }
        origin.waiting = kept
        origin.next = 0
        origin.ended = 0
    }

    /// `transfer` left the engine: the next waiting transfer of its origin that has not ended, counted in, if any.
    /// Waiting transfers that ended meanwhile (cancelled, timed out) are released on the way.
    mutating func leave(_ transfer: CurlTransfer) -> CurlTransfer? {
        guard perHost > 0 else { return nil }
        let key = transfer.origin
        guard origins[key] != nil else { return nil }
        let admitted = Self.next(after: &origins[key, default: Origin()])
        if let origin = origins[key], origin.running == 0, origin.waiting.isEmpty { origins[key] = nil }
        return admitted
    }

    /// Frees the place of a transfer that left and gives it to the first waiting transfer that has not ended.
    private static func next(after origin: inout Origin) -> CurlTransfer? {
        origin.running -= 1
        var admitted: CurlTransfer?
        while admitted == nil, origin.next < origin.waiting.count {
            let slot = origin.waiting[origin.next]
            origin.waiting[origin.next] = nil
            origin.next += 1
            guard let candidate = slot else { continue }
            if candidate.isEnded {
                candidate.release()
                origin.ended = max(0, origin.ended - 1)
            } else {
                origin.running += 1
                admitted = candidate
            }
        }
        if origin.next == origin.waiting.count {
            origin.waiting.removeAll(keepingCapacity: false)
            origin.next = 0
            origin.ended = 0
        } else if origin.next > 1_024, origin.next * 2 > origin.waiting.count {
            origin.waiting.removeFirst(origin.next)
            origin.next = 0
        }
        return admitted
    }

    /// Every transfer still waiting, in order; the lines are emptied (the loop stops).
    mutating func drain() -> [CurlTransfer] {
        defer { origins = [:] }
        return origins.values.flatMap { $0.waiting[$0.next...].compactMap { $0 } }
    }

    /// The slots of every origin's line, read ones included (for tests).
    var lineSlotCount: Int { origins.values.reduce(0) { $0 + $1.waiting.count } }

    private func limit(for transfer: CurlTransfer) -> Int {
        transfer.request.scheme == "https" ? perHost * 100 : perHost
    }
}
