import Foundation
import Networking
import Testing
import NetworkingTestSupport

@testable import NetworkingCurl

extension RealServerTests {
    /// `CurlTransport` reuses the easy handle of a finished transfer (reset, `CurlHandlePool`): one caller at a time
    /// gets the same handle each call, so nothing a request set on it (method, body, headers, compression, HEAD's
    /// no-body) may reach the next; a transfer that did not finish cleanly frees its handle.
    @Suite struct CurlHandleReuseTests {
        @Test func aReusedHandleCarriesNothingOfTheRequestBefore() async throws {
            let key = FaultServer.newKey("curl-reuse")
            let transport = try CurlTransport()
            let client = try await FaultServer.client(transport: transport)
            let query = [URLQueryItem(name: "key", value: key)]
            let posted = try await client.send(
                NetworkRequest<FaultEcho>(
                    .patch, path: "/echo", query: query, headers: ["X-First": "1", "Accept-Encoding": "identity"],
                    body: .data(Data("first".utf8))))
            #expect(posted.method == "PATCH" && posted.body == "first" && posted.headers["x-first"] == "1")
            // The first call's handle is kept: the next call takes it.
            #expect(transport.loop.handles.keptCount == 1)
            let echo = try await client.send(NetworkRequest<FaultEcho>(path: "/echo", query: query))
            #expect(echo.method == "GET")
            #expect(echo.body == "")
            #expect(echo.headers["x-first"] == nil)
            #expect(echo.headers["content-length"] == nil)
            #expect(echo.headers["accept-encoding"] != "identity", "the transport's own Accept-Encoding again")
            // HEAD sets libcurl's no-body option; the GET after it on the same handle gets its body.
            let head = try await client.response(for: NetworkRequest<Data>(.head, path: "/bytes/100", query: query))
            #expect(head.value.isEmpty)
            let bytes = try await client.send(NetworkRequest<Data>(path: "/bytes/100", query: query))
            #expect(bytes == Data(repeating: UInt8(ascii: "x"), count: 100))
            #expect(transport.loop.handles.keptCount == 1)
            let hits = try await FaultServer.hits(key)
            #expect(hits.requests.map(\.method) == ["PATCH", "GET", "HEAD", "GET"])
        }

        @Test func aHandleThatSentAStreamedBodyWithTrailersSendsNothingOfItNext() async throws {
            // The body's read callback and its trailer callback are set per transfer; after the reset the GET on the
            // same handle must send no body, no chunks and no trailer fields.
            let first = FaultServer.newKey("curl-reuse-trailers")
            let second = FaultServer.newKey("curl-reuse-after-trailers")
            let base = try await DuplexServer.plainURL()
            let transport = try Duplex.curl()
            let (body, continuation) = HTTPBody.makeStream()
            continuation.yield(Data("payload".utf8))
            continuation.finish(trailerFields: ["X-Checksum": "42"])
            let (_, answer) = try await transport.send(
                HTTPRequest(method: .put, url: Duplex.url(base, "/upload-trailers", ["key": first]), body: body))
            _ = try await answer.collect(upTo: 1 << 16)
            #expect(try await DuplexServer.completedRecord(first).trailers == [["X-Checksum", "42"]])
            #expect(transport.loop.handles.keptCount == 1)
            let (_, next) = try await transport.send(
                HTTPRequest(url: Duplex.url(base, "/upload-trailers", ["key": second])))
            _ = try await next.collect(upTo: 1 << 16)
            let record = try await DuplexServer.completedRecord(second)
            #expect(record.received == "")
            #expect(record.trailers.isEmpty)
            #expect(transport.loop.handles.keptCount == 1)
        }

        @Test func aTransferThatFailedFreesItsHandle() async throws {
            let key = FaultServer.newKey("curl-reuse-fail")
            let transport = try CurlTransport()
            let client = try await FaultServer.client(transport: transport)
            let query = [URLQueryItem(name: "key", value: key)]
            // The server promises 1,000 bytes, sends 100 and closes: libcurl ends the transfer with an error.
            await #expect(throws: (any Error).self) {
                try await client.send(NetworkRequest<Data>(path: "/close-mid-body", query: query))
            }
            #expect(transport.loop.handles.keptCount == 0)
            _ = try await client.send(NetworkRequest<FaultEcho>(path: "/echo", query: query))
            #expect(transport.loop.handles.keptCount == 1)
        }
    }
}
