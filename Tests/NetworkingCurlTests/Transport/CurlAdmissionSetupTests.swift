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
