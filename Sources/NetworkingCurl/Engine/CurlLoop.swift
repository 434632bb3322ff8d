import CCurlShim
import Foundation
import NetworkingCore
import NetworkingHTTP

/// The one thread of a transport that owns its multi handle: every libcurl call on a transfer that has been handed
/// over happens here. Callers hand work over through a locked queue and wake the thread with `curl_multi_wakeup`,
/// only when it sleeps; the thread sleeps in `curl_multi_poll` until a socket, a libcurl timer or a wake-up needs
/// it. With no transfer to watch it first waits a moment awake for the next call, on a flag, yielding the processor.
///
/// Only the queue and two flags are shared (a `LockedBox`, atomic loads and stores); `active` and the multi handle
/// are touched by the loop thread alone, hence `@unchecked Sendable`.
final class CurlLoop: @unchecked Sendable {
    /// Work handed to the loop thread.
    enum Command {
        /// Start a prepared transfer.
        case add(CurlTransfer)
        /// Stop a transfer now (its caller cancelled, or the reader went away), ending it with `error`.
        case cancel(CurlTransfer, any Error)
        /// The reader drained its buffer: receive again.
        case resumeReceiving(CurlTransfer)
        /// The upload has bytes again: send again.
        case resumeSending(CurlTransfer)
        /// Work of a WebSocket connection (`WebSocket/CurlWebSockets.swift`).
        case webSocket(CurlWebSocket.Command)
        /// Run a task's job here: the loop is the executor of tasks that prefer it (see `CurlLoop+Executor.swift`).
        case run(UnownedJob)
        /// End every transfer and the thread.
        case stop
    }

    let library: CurlLibrary
    /// Easy handles for transfers, reused from one to the next.
    let handles: CurlHandlePool
    private let multi: UnsafeMutableRawPointer
    /// Commands waiting for the loop thread, and whether it has stopped (after which the multi handle is gone).
    private let queue = LockedBox((commands: [Command](), stopped: false))
    /// 1 while commands wait in `queue`: set by callers, cleared by the loop when it takes them (atomic).
    private let pending = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    /// 1 while the loop sleeps, or is about to, in `curl_multi_poll`: only then must a caller wake it (atomic).
    private let sleeping = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    /// Transfers in the multi handle, by easy handle (loop thread only).
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Transfers whose head completed during the current round, to hand to their callers at its end.
    private var readyHeads: [CurlTransfer] = []
    /// Which transfers may enter the multi handle now, per origin; the others wait there (loop thread only).
    private var admission: CurlAdmission
    /// What a transfer set up as it enters the engine is set up with.
    let settings: CurlSettings
    /// Transfers made and not yet released, all origins together (atomic).
    private let alive = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    /// The connection limit per host; 0 for none.
    private let perHost: Int
    /// The WebSocket connections (loop thread only): the hooks below marked "WebSocket" are all they need.
    private lazy var webSockets = CurlWebSockets()

    init(
        library: CurlLibrary, configuration: CurlTransport.Configuration, settings: CurlSettings
    ) throws(CurlUnavailableError) {
        self.library = library
        self.handles = CurlHandlePool(api: library.api)
        self.settings = settings
        perHost = max(0, configuration.maximumConnectionsPerHost)
        alive.initialize(to: 0)
        guard let multi = library.api.pointee.multi_init() else {
            throw CurlUnavailableError(library: configuration.libraryName, reason: "curl_multi_init failed")
        }
        self.multi = multi
        admission = CurlAdmission(perHost: configuration.maximumConnectionsPerHost)
        pending.initialize(to: 0)
        sleeping.initialize(to: 0)
        let api = library.api
        _ = ncurl_multi_setopt_long(
            api, multi, CurlOption.multiMaxConnects, max(1, configuration.maximumPooledConnections))
        _ = ncurl_multi_setopt_long(
            api, multi, CurlOption.multiMaxHostConnections, max(0, configuration.maximumConnectionsPerHost))
        // CURLPIPE_MULTIPLEX (2): concurrent calls to one HTTP/2 origin share its connection.
        _ = ncurl_multi_setopt_long(api, multi, CurlOption.multiPipelining, 2)
        let thread = Thread { [self] in
            // Named for debuggers, `top` and profilers (at most 15 bytes on Linux, which refuses longer names).
            ncurl_name_thread("NetworkingCurl")
            run()
        }
        thread.start()
    }

    deinit {
        pending.deallocate()
        sleeping.deallocate()
        alive.deallocate()
    }

    /// Counts a transfer in (any thread).
    func transferBegan() { _ = ncurl_count_add(alive, 1) }

    /// Counts a released transfer out (any thread).
    func transferEnded() { _ = ncurl_count_add(alive, -1) }

    /// Whether `transfer` gets its easy handle on the caller's thread: yes while the transport's transfers fit in
    /// one origin's room (``CurlAdmission``); beyond that the call will likely wait its turn, holding no handle
    /// until it enters the engine. A guess across origins: a call set up late only costs the loop thread its setup.
    func setsUpOnCallerThread(_ transfer: CurlTransfer) -> Bool {
        guard perHost > 0 else { return true }
        let room = transfer.request.scheme == "https" ? perHost * 100 : perHost
        return ncurl_count_add(alive, 0) <= room
    }

    /// Whether the loop thread has ended (the transport is gone); from then on its executor forwards work.
    var hasStopped: Bool { queue.withLock { $0.stopped } }

    /// Hands `command` to the loop thread, waking it if it sleeps (the first caller to find it asleep wakes it).
    /// The wake-up happens under the queue's lock, so it can never reach a multi handle the stopping thread freed.
    ///
    /// The loop sets `sleeping` before it reads `pending` and a caller sets `pending` before it reads `sleeping`,
    /// both sequentially consistent: either the loop sees the command or the caller sees the loop asleep.
    func submit(_ command: Command) {
        let refused = queue.withLock { queue -> Bool in
            guard !queue.stopped else { return true }
            queue.commands.append(command)
            ncurl_flag_store(pending, 1)
            if ncurl_flag_load(sleeping) == 1 {
                ncurl_flag_store(sleeping, 0)
                _ = library.api.pointee.multi_wakeup(multi)
            }
            return false
        }
        if refused { Self.settle(command) }
    }

    /// What a command the stopped loop will never run still needs: a transfer its failure, a job another executor.
    private static func settle(_ command: Command) {
        switch command {
        case .add(let transfer): transfer.fail(CancellationError())
        case .webSocket(let command): command.settleUnrun()  // WebSocket
        case .run(let job):
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) { Self.runElsewhere(job) }
        default: break
        }
    }

    private func run() {
        let api = library.api
        var running: Int32 = 0
        var ready: Int32 = 0
        while true {
            if ncurl_flag_load(pending) == 1 {
                let commands = queue.withLock { queue in
                    ncurl_flag_store(pending, 0)
                    defer { queue.commands.removeAll(keepingCapacity: true) }
                    return queue.commands
                }
                for (index, command) in commands.enumerated() where !handle(command) {
                    stopAll(dropping: commands[(index + 1)...])
                    return
                }
            }
            _ = api.pointee.multi_perform(multi, &running)
            var easy: UnsafeMutableRawPointer?
            var result: Int32 = 0
            while ncurl_multi_next_done(api, multi, &easy, &result) == 1 {
                // WebSocket: a connect-only transfer finished; its handle stays in the multi handle.
                if let easy, webSockets.finished(easy, result: result, multi: multi, api: api) { continue }
                guard let easy, let transfer = active.removeValue(forKey: easy) else { continue }
                _ = api.pointee.multi_remove_handle(multi, easy)
                transfer.complete(result: result)
                admitNext(after: transfer)
            }
            for transfer in readyHeads { transfer.deliverHead() }
            readyHeads.removeAll(keepingCapacity: true)
            // Nothing to watch: a caller answered a moment ago often sends its next request within microseconds,
            // and catching it awake spares two thread wake-ups (each tens of microseconds).
            if active.isEmpty && awaitCommand(for: Self.spin) { continue }
            ncurl_flag_store(sleeping, 1)
            if ncurl_flag_load(pending) == 1 {
                ncurl_flag_store(sleeping, 0)
                continue
            }
            // WebSocket: the poll also watches the sockets of WebSocket connections waiting to read or write.
            webSockets.poll(multi, timeout: 1000, ready: &ready, api: api)
            ncurl_flag_store(sleeping, 0)
            webSockets.serviceReady(multi: multi, api: api)  // WebSocket
        }
    }

    /// Waits up to `limit` for a command, runnable but yielding the processor; `true` when one came.
    ///
    /// Yielding rather than spinning in place leaves the processor to a thread that wants it (the caller this loop
    /// just woke, the server on the same machine), which on few (virtual) processors is worth more than the
    /// wait. Measured on 2 vCPUs, one caller: about 15 % more calls a second than spinning with a pause, and
    /// less CPU per call (`--curl-probe`: 106 -> 77 µs).
    private func awaitCommand(for limit: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while true {
            if ncurl_flag_load(pending) == 1 { return true }
            if clock.now >= deadline { return false }
            ncurl_yield()
        }
    }

    /// How long the loop stays awake, with no transfer, before it sleeps.
    static let spin = Duration.microseconds(100)

    /// Notes that `transfer`'s head is complete (loop thread, from its header callback).
    func headReady(_ transfer: CurlTransfer) {
        readyHeads.append(transfer)
    }

    /// Runs one command; `false` for ``Command/stop``.
    private func handle(_ command: Command) -> Bool {
        let api = library.api
        switch command {
        case .add(let transfer):
            guard !transfer.isEnded else {
                transfer.release()
                return true
            }
            if admission.admit(transfer), !enter(transfer) { admitNext(after: transfer) }
        case .cancel(let transfer, let error):
            guard let easy = transfer.easy, active[easy] === transfer, active.removeValue(forKey: easy) != nil else {
                // Not started (it never will be: it has ended; if it waits for room, its turn skips it, and the line
                // takes it out once ended ones are half of it) or finished already: only its handle to free.
                transfer.release()
                if transfer.isEnded { admission.waiterEnded(transfer) }
                return true
            }
            _ = api.pointee.multi_remove_handle(multi, transfer.easy)
            transfer.fail(error)
            admitNext(after: transfer)
        case .resumeReceiving(let transfer):
            guard let easy = transfer.easy, active[easy] === transfer else { return true }
            transfer.resumeReceiving()
        case .resumeSending(let transfer):
            guard let easy = transfer.easy, active[easy] === transfer else { return true }
            transfer.resumeSending()
        case .webSocket(let command):
            webSockets.handle(command, multi: multi, api: api)
        case .run(let job):
            // Only `enqueue`, of the same availability, makes this command.
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) { runJob(job) }
        case .stop:
            return false
        }
        return true
    }

    /// Puts `transfer` in the multi handle, set up first if it waited without a handle; `false` (and the transfer
    /// failed) when libcurl refuses it.
    private func enter(_ transfer: CurlTransfer) -> Bool {
        if transfer.easy == nil, let error = transfer.prepare(settings) {
            transfer.fail(error)
            return false
        }
        active[transfer.easy] = transfer
        let added = library.api.pointee.multi_add_handle(multi, transfer.easy)
        guard added != 0 else { return true }
        active[transfer.easy] = nil
        transfer.fail(TransportError(.other, "libcurl refused the transfer (multi code \(added))"))
        return false
    }

    /// `transfer` left the multi handle: the next waiting transfer of its origin enters (and the next, if libcurl
    /// refuses that one).
    private func admitNext(after transfer: CurlTransfer) {
        var leaving = transfer
        while let next = admission.leave(leaving), !enter(next) { leaving = next }
    }

    /// Ends every transfer as cancelled, then frees the multi handle once no caller can wake it any more.
    private func stopAll(dropping rest: ArraySlice<Command>) {
        let api = library.api
        for (easy, transfer) in active {
            _ = api.pointee.multi_remove_handle(multi, easy)
            transfer.fail(CancellationError())
        }
        active = [:]
        webSockets.stopAll(multi: multi, api: api)  // WebSocket
        for transfer in admission.drain() { transfer.fail(CancellationError()) }
        let late = queue.withLock { queue in
            queue.stopped = true
            defer { queue.commands.removeAll() }
            return queue.commands
        }
        for command in Array(rest) + late { Self.settle(command) }
        handles.close()
        _ = api.pointee.multi_cleanup(multi)
    }
}
