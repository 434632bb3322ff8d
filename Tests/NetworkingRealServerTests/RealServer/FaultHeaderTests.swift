import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RealServerTests {
    /// What reaches the wire for header fields (issues 10.8 and 11): a bad value or name written by anyone fails
    /// the call before any I/O, counted at the server; names go out in the case they were written; repeated fields
    /// arrive.
    @Suite struct FaultHeaderTests {
        /// A value with each kind of line breaker or NUL in it.
        static let badValues = ["a\r\nInjected: yes", "a\rb", "a\nb", "a\u{0}b"]

        struct Writer: Sendable, CustomStringConvertible {
            let description: String
            let behavior: @Sendable (String) -> any RequestBehavior
            let headers: @Sendable (String) -> HTTPFields
        }

        /// Every place a header value can come from: the request and each built-in behavior that writes one.
        static let writers: [Writer] = [
            Writer(description: "the request", behavior: { _ in EmptyBehavior() }, headers: { ["X-Note": $0] }),
            Writer(description: ".headers", behavior: { bad in .headers(["X-Note": bad]) }, headers: { _ in [:] }),
            Writer(
                description: ".authorization(.bearer)", behavior: { bad in .authorization(.bearer) { "t0k" + bad } },
                headers: { _ in [:] }),
            Writer(
                description: ".authorization(.custom)",
                behavior: { bad in .authorization(.custom(header: "X-API-Key")) { bad } }, headers: { _ in [:] }),
            Writer(
                description: ".tokenRefresh",
                behavior: { bad in
                    .tokenRefresh(initial: AccessCredential(token: "t0k" + bad)) { _ in AccessCredential(token: "x") }
                },
                headers: { _ in [:] }),
            Writer(
                description: ".modifyRequest",
                behavior: { bad in .modifyRequest { $0.headerFields["X-Signature"] = bad } }, headers: { _ in [:] }),
        ]

        @Test(arguments: writers, badValues)
        func aControlCharacterFromAnyWriterFailsTheCallWithNoHit(writer: Writer, bad: String) async throws {
            let key = FaultServer.newKey("bad-value")
            let client = try await FaultServer.client(behavior: writer.behavior(bad))
            let error = try await expectNetworkError {
                try await client.send(
                    NetworkRequest<FaultEcho>(path: "/echo", query: Faults.query(key), headers: writer.headers(bad)))
            }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message.contains("contains CR, LF, NUL or another control character") == true)
            #expect(try await FaultServer.hits(key).count == 0)
        }

        @Test func anIdempotencyKeyHeaderNameThatIsNotATokenFailsTheCallWithNoHit() async throws {
            let key = FaultServer.newKey("bad-name")
            let client = try await FaultServer.client(behavior: IdempotencyKeyBehavior(headerName: "Idempotency Key"))
            let error = try await expectNetworkError {
                try await client.send(NetworkRequest<Data>(.post, path: "/echo", query: Faults.query(key)))
            }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message.contains("is not a valid HTTP token") == true)
            #expect(try await FaultServer.hits(key).count == 0)
        }

        @Test func headerNamesReachTheServerInTheCaseTheyWereWritten() async throws {
            let key = FaultServer.newKey("case")
            let client = try await FaultServer.client(
                behavior: CombinedBehavior([
                    .authorization(.custom(header: "X-API-Key"), store: InMemoryTokenStore("k")),
                    .headers(["x-lower-case": "1", "X-MiXeD-CaSe": "2"]),
                ]))
            _ = try await client.send(
                NetworkRequest<FaultEcho>(path: "/echo", query: Faults.query(key), headers: ["X-Request-ID": "r"]))
            let names = Set(try #require(try await FaultServer.hits(key).requests.first).raw_headers.map { $0[0] })
            for name in ["X-API-Key", "x-lower-case", "X-MiXeD-CaSe", "X-Request-ID"] {
                #expect(names.contains(name), "\(name) arrived as \(names.sorted())")
            }
        }

        @Test func repeatedFieldsArriveWithEveryValue() async throws {
            let key = FaultServer.newKey("repeated")
            var headers: HTTPFields = ["X-Tag": "a"]
            headers.append(HTTPField(name: "x-tag", value: "b"))
            let client = try await FaultServer.client(
                behavior: .modifyRequest { request in
                    request.headerFields.append(HTTPField(name: "X-Tag", value: "c"))
                })
            let echo = try await client.send(
                NetworkRequest<FaultEcho>(path: "/echo", query: Faults.query(key), headers: headers))
            #expect(echo.headers["x-tag"] == "a, b, c")
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test(arguments: badValues)
        func theTransportUsedWithoutAClientRefusesARequestWithARefusedWrite(bad: String) async throws {
            // Given a request whose header write was refused, sent straight to the transport
            let key = FaultServer.newKey("transport-direct")
            let url = try await FaultServer.url().appendingPathComponent("ok")
            var request = HTTPRequest(url: URL(string: "\(url.absoluteString)?key=\(key)")!)
            request.headerFields[.authorization] = "Bearer t0k" + bad
            #expect(request.invalidReason != nil)
            // When / Then it fails, naming the problem, and nothing reaches the server
            do {
                _ = try await TestTransport.make().send(request)
                Issue.record("the transport sent a request with a refused header write")
            } catch let error as TransportError {
                #expect(error.message.contains("nothing was sent"), "\(error)")
            }
            #expect(try await FaultServer.hits(key).count == 0)
        }
    }
}
