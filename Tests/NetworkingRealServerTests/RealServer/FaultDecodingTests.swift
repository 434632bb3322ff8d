import Foundation
import Networking
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// Bodies that arrive whole but are not what the caller expected (Tests/README.md F30, F24): typed decoding errors
    /// with the status, headers and a body snippet, and one request on the server.
    @Suite struct FaultDecodingTests {
        struct Flag: Decodable, Sendable { let a: Int }

        @Test func invalidJSONIsADecodingErrorWithTheBody() async throws {
            let key = FaultServer.newKey("invalid-json")
            let client = try await FaultServer.client()
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Flag>(path: "/invalid-json", query: Faults.query(key)))
            }
            #expect(error?.kind == .decoding)
            #expect(error?.statusCode == 200)
            #expect(error?.bodySnippet() == #"{"a": 1,,}"#)
            #expect(error?.underlyingError is DecodingError)
            #expect(error?.description.contains(#"body: {"a": 1,,}"#) == true)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func nonUTF8TextIsADecodingErrorButArrivesAsData() async throws {
            let key = FaultServer.newKey("non-utf8")
            let client = try await FaultServer.client()
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<String>(path: "/non-utf8", query: Faults.query(key)))
            }
            #expect(error?.kind == .decoding)
            #expect(error?.response?.headerFields["Content-Type"] == "text/plain; charset=utf-8")
            // The snippet shows the bad bytes as replacement characters and never crashes.
            #expect(error?.bodySnippet().hasSuffix(" bad") == true)
            let data = try await client.send(NetworkRequest<Data>(path: "/non-utf8", query: Faults.query(key)))
            #expect(data == Data([0xFF, 0xFE, 0xFA]) + Data(" bad".utf8))
            #expect(try await FaultServer.hits(key).count == 2)
        }

        @Test func htmlWhereJSONWasExpectedIsADecodingError() async throws {
            let key = FaultServer.newKey("html")
            let client = try await FaultServer.client()
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Flag>(path: "/html", query: Faults.query(key)))
            }
            #expect(error?.kind == .decoding)
            #expect(error?.bodySnippet(limit: 15) == "<!doctype html>… (86 bytes)")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func jsonErrorBodyOfAnUnacceptableStatusIsKept() async throws {
            let key = FaultServer.newKey("status-body")
            let client = try await FaultServer.client()
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Flag>(path: "/status/503", query: Faults.query(key)))
            }
            #expect(error?.kind == .unacceptableStatus(503))
            #expect(error?.bodySnippet() == #"{"status": 503}"#)
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test(arguments: [99, 600, 999])
        func unusualStatusCodesAreUnacceptableNotCrashes(status: Int) async throws {
            // Statuses outside 100-599: the server sends them verbatim; the client must not treat them as success.
            let key = FaultServer.newKey("odd-status")
            let client = try await FaultServer.client()
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(path: "/status/\(status)", query: Faults.query(key)))
            }
            if status < 200 {
                // The fault server refuses to send a status below 200.
                #expect(error?.kind == .unacceptableStatus(400))
            } else {
                // libcurl passes any three digits on; Apple's loader may refuse a status above 599 itself: a transport
                // error there, never a success.
                #expect(
                    TestEngine.onLibcurl(
                        error?.kind == .unacceptableStatus(status),
                        elseAtLeast: error?.kind == .unacceptableStatus(status) || Faults.transportCode(error) != nil),
                    "got \(String(describing: error))")
            }
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func gzipBodyIsDecodedTransparently() async throws {
            struct Gzipped: Decodable, Sendable { let gzipped: Bool }
            let key = FaultServer.newKey("gzip")
            let client = try await FaultServer.client()
            let response = try await client.response(
                for: NetworkRequest<Gzipped>(path: "/gzip", query: Faults.query(key)))
            #expect(response.value.gzipped)
            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 1)
            // libcurl asks for compression on its own (Tests/README.md, F24).
            #expect(hits.requests.first?.headers["accept-encoding"]?.contains("gzip") == true)
        }

        @Test func aContentCodingNobodyDecodesReachesTheCallerAsSent() async throws {
            // RFC 9110 §8.4.1: a coding the client cannot decode is not an error; the body and its
            // Content-Encoding reach the caller untouched. The server sends one it was never offered.
            let key = FaultServer.newKey("unknown-coding")
            let client = try await FaultServer.client()
            let request = NetworkRequest<Data>(path: "/unknown-coding", query: Faults.query(key))
            let result = try await outcome { try await client.response(for: request) }
            let asSent =
                result.value?.value == Data([0x00] + Array("raw-bytes".utf8) + [0xFF])
                && result.value?.response.headerFields[.contentEncoding] == "x-unheard-of"
            switch TestTransport.current {
            case .curl:
                #expect(asSent, "got \(String(describing: result.error))")
            case .urlSession:
                // FoundationNetworking hands the coding to libcurl, which refuses it: a transport error, documented
                // in TransportsAndTrust.md. Apple's loader decodes only what it offered: at least the body as sent,
                // or that transport error.
                #expect(
                    TestEngine.onLibcurl(
                        result.error?.kind == .transport(.other),
                        elseAtLeast: asSent || result.error?.kind == .transport(.other)),
                    "got \(String(describing: result))")
            }
            #expect(try await FaultServer.hits(key).count == 1)
        }
    }
}
