import Foundation
import NetworkingHTTP
import Testing

@testable import NetworkingCurl

/// Where a call gets its easy handle: on the caller's thread while the transport's calls fit in one origin's room,
/// and only as it enters the engine beyond that (a call waiting its turn holds no handle). No server: transfers are
/// made and released without being sent.
@Suite struct CurlAdmissionSetupTests {
    static func decisions(_ transport: CurlTransport, url: String, count: Int) -> [Bool] {
        let request = HTTPRequest(url: URL(string: url)!)
        var transfers: [CurlTransfer] = []
        var decisions: [Bool] = []
        for _ in 0..<count {
            let transfer = CurlTransfer(loop: transport.loop, request: request, bufferLimit: 1024)
            transfers.append(transfer)
            decisions.append(transport.loop.setsUpOnCallerThread(transfer))
        }
        for transfer in transfers {
            #expect(transfer.easy == nil)
            transfer.release()
        }
        return decisions
    }

    @Test func callsBeyondTheRoomOfOneOriginAreSetUpAsTheyEnter() throws {
        let transport = try CurlTransport(configuration: .init(maximumConnectionsPerHost: 2))
        #expect(Self.decisions(transport, url: "http://127.0.0.1:9/x", count: 4) == [true, true, false, false])
        // Released transfers are counted out: the next call is set up at once again.
        #expect(Self.decisions(transport, url: "http://127.0.0.1:9/x", count: 1) == [true])
    }

    @Test func overHTTPSTheRoomIsAHundredStreamsAConnection() throws {
        let transport = try CurlTransport(configuration: .init(maximumConnectionsPerHost: 1))
        let decisions = Self.decisions(transport, url: "https://127.0.0.1:9/x", count: 101)
        #expect(decisions.prefix(100).allSatisfy { $0 })
        #expect(decisions.last == false)
    }

    @Test func withoutALimitEveryCallIsSetUpAtOnce() throws {
        let transport = try CurlTransport(configuration: .init(maximumConnectionsPerHost: 0))
        #expect(Self.decisions(transport, url: "http://127.0.0.1:9/x", count: 5).allSatisfy { $0 })
    }

    @Test func aTransferSetUpLateGetsItsHandleThen() throws {
        let transport = try CurlTransport()
        let transfer = CurlTransfer(
            loop: transport.loop, request: HTTPRequest(url: URL(string: "http://127.0.0.1:9/x")!), bufferLimit: 1024)
        #expect(transfer.easy == nil)
        #expect(transfer.prepare(transport.loop.settings) == nil)
        #expect(transfer.easy != nil)
        transfer.release()
    }
}

/// The line of calls waiting for room in one origin holds only calls still waiting: one whose turn came is out of
/// it, and calls that gave up while waiting (cancelled, timed out) are taken out once they are half the line,
/// however long the transfers holding the room run. No server: transfers are made and lined up without being sent.
@Suite struct CurlAdmissionLineTests {
    static func transfer(_ transport: CurlTransport) -> CurlTransfer {
        CurlTransfer(
            loop: transport.loop, request: HTTPRequest(url: URL(string: "http://127.0.0.1:9/x")!), bufferLimit: 1024)
    }

    @Test func callsThatGaveUpWhileWaitingAreTakenOutOfTheLine() throws {
        let transport = try CurlTransport()
        var admission = CurlAdmission(perHost: 1)
        // One transfer holds the origin's only place for the whole test, like a long stream.
        let holder = Self.transfer(transport)
        let holderEntered = admission.admit(holder)
        #expect(holderEntered)
        weak var firstGaveUp: CurlTransfer?
        var mostSlots = 0
        for index in 0..<10_000 {
            let waiter = Self.transfer(transport)
            let waiterEntered = admission.admit(waiter)
            #expect(waiterEntered == false)
            if index == 0 { firstGaveUp = waiter }
            // Its call times out: the transfer ends, the loop frees its handle and tells the line.
            waiter.shared.withLock { $0.ended = true }
            waiter.release()
            admission.waiterEnded(waiter)
            mostSlots = max(mostSlots, admission.lineSlotCount)
        }
        #expect(mostSlots <= 32)
        #expect(firstGaveUp == nil)
        // A call still waiting keeps its place and gets the room when the holder leaves.
        let patient = Self.transfer(transport)
        let patientEntered = admission.admit(patient)
        #expect(patientEntered == false)
        let nextAfterHolder = admission.leave(holder)
        #expect(nextAfterHolder === patient)
        holder.release()
        #expect(admission.lineSlotCount == 0)
        patient.release()
    }

    @Test func aTransferWhoseTurnCameIsNoLongerHeldByTheLine() throws {
        let transport = try CurlTransport()
        var admission = CurlAdmission(perHost: 1)
        let holder = Self.transfer(transport)
        let holderEntered = admission.admit(holder)
        #expect(holderEntered)
        let second = Self.transfer(transport)
        weak var admittedFirst: CurlTransfer?
        do {
            let first = Self.transfer(transport)
            admittedFirst = first
            let firstEntered = admission.admit(first)
            let secondEntered = admission.admit(second)
            #expect(firstEntered == false && secondEntered == false)
            let nextAfterHolder = admission.leave(holder)
            #expect(nextAfterHolder === first)
            first.release()
        }
        // The first one's turn came and it is done: the line, which still holds the second, no longer holds it.
        #expect(admittedFirst == nil)
        let nextAfterFirst = admission.leave(holder)
        #expect(nextAfterFirst === second)
        holder.release()
        second.release()
    }
}
