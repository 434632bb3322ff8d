import Foundation
import Networking
import NetworkingCurl
import NetworkingTesting
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// Full duplex on `CurlTransport` over TLS against the duplex server, which offers HTTP/2 and HTTP/1.1 (Tests/README.md
    /// F39): an echo interleaves on HTTP/2; a response with a length ends at its last byte on HTTP/2 while the request
    /// still sends; a body declared to wait on the response goes over HTTP/1.1, where the transport reads the end of
    /// any response itself.
    @Suite struct CurlFullDuplexTests {
        @Test func anEchoInterleavesOnHTTP2() async throws {
            let key = FaultServer.newKey("h2-echo")
            let url = Duplex.url(try await DuplexServer.tlsURL(), "/echo", ["key": key])
            let transport = try Duplex.curl()
            let (pieces, writer) = AsyncThrowingStream.makeStream(of: Data.self)
            writer.yield(Data("0".utf8))
            // Not declared (HTTPBody.waitsOnResponse): HTTP/2 stays, and the request ends first.
            let request = HTTPRequest(method: .post, url: url, body: HTTPBody(once: pieces))
            let echoed = try await Duplex.within {
                let (_, response) = try await transport.send(request)
                var echoed = ""
                for try await chunk in response {
                    echoed += String(decoding: chunk, as: UTF8.self)
                    let next = echoed.count
                    if next == 100 {
                        writer.finish()
                    } else if echoed.last == Character("\((next - 1) % 10)") {
                        writer.yield(Data("\(next % 10)".utf8))
                    }
                }
                return echoed
            }
            let expected = (0..<100).map { "\($0 % 10)" }.joined()
            #expect(echoed == expected)
            let record = try await DuplexServer.completedRecord(key)
            #expect(record.protocol == "HTTP/2")
            #expect(record.received == expected)
        }

        @Test func aResponseWithALengthEndsAtItsLastByteOnHTTP2WhileTheRequestStillSends() async throws {
            let key = FaultServer.newKey("h2-speak")
            let url = Duplex.url(
                try await DuplexServer.tlsURL(), "/speak", ["key": key, "count": "1000", "length": "1"])
            // The transport outlives the call: what is left of the request body goes out after the response.
            let transport = try Duplex.curl()
            let (head, received, _) = try await Duplex.within {
                try await Duplex.converse(transport, url, declared: false)
            }
            #expect(head.headerFields[.contentLength] == "1000")
            #expect(received == Duplex.spoken(1000))
            let record = try await DuplexServer.completedRecord(key)
            #expect(record.protocol == "HTTP/2")
            #expect(record.echoed_ok == true)
        }

        @Test func aBodyDeclaredToWaitOnTheResponseGoesOverHTTP1AndReadsTheTrailers() async throws {
            // libcurl reports an HTTP/2 response's end only once the request has ended too: a declared body asks
            // for HTTP/1.1 (ALPN), where the transport reads the chunks, the trailer section and the end itself.
            let key = FaultServer.newKey("tls-speak")
            let url = Duplex.url(
                try await DuplexServer.tlsURL(), "/speak", ["key": key, "count": "1000", "trailers": "1"])
            let transport = try Duplex.curl()
            let (_, received, trailers) = try await Duplex.within { try await Duplex.converse(transport, url) }
            #expect(received == Duplex.spoken(1000))
            let record = try await DuplexServer.completedRecord(key)
            #expect(record.protocol == "HTTP/1.1")
            #expect(record.echoed_ok == true)
            #expect(trailers?[HTTPField.Name("X-Count")] == "1000")
            #expect(trailers?[HTTPField.Name("X-Checksum")] == String(Adler32.checksum(Duplex.spoken(1000))))
        }

        @Test func aServerThatClosesAfterAnsweringEndsTheExchangeAndTheRestOfTheBodyIsDropped() async throws {
            // The server answers the first piece with `Connection: close` and closes, the request body still open:
            // the response ends at its length, libcurl stops sending (RFC 9112 §9.6), and the answer stands.
            let key = FaultServer.newKey("close")
            let url = Duplex.url(try await DuplexServer.plainURL(), "/answer-and-close", ["key": key])
            let (pieces, writer) = AsyncThrowingStream.makeStream(of: Data.self)
            writer.yield(Data("first".utf8))
            var body = HTTPBody(once: pieces)
            body.waitsOnResponse = true
            let transport = try Duplex.curl()
            let request = HTTPRequest(method: .post, url: url, body: body)
            let received = try await Duplex.within {
                let (_, response) = try await transport.send(request)
                let received = try await response.collect(upTo: 1 << 20)
                // The producer learns the end only now; what it has left is not sent.
                writer.yield(Data("second".utf8))
                writer.finish()
                return received
            }
            let record = try #require(try await DuplexServer.hits(key).requests.first)
            #expect(record.received == "first")
            #expect(!record.complete)
            #expect(String(decoding: received, as: UTF8.self) == "answered before the end of the request")
        }
    }
}

/// Adler-32 (RFC 1950 §9), the checksum the duplex server puts in its `X-Checksum` trailers.
enum Adler32 {
    static func checksum(_ data: Data) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}
