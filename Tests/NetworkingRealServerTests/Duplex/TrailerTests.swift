import Foundation
import Networking
import NetworkingCurl
import NetworkingTesting
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// Trailer fields both ways (Tests/README.md F40), against the duplex server, which sends `X-Checksum`, `X-Count`
    /// and `X-Secret` after a chunked body and records the trailers it receives. Reading them is `CurlTransport`'s
    /// alone: a response with trailers is not sent to `URLSessionTransport` here (Linux's Foundation ends the
    /// process on one, issue 41, another change's subject); sending them is refused at once there.
    @Suite struct TrailerTests {
        /// What `/trailers` sends: 1,000 bytes of `0123456789` over and over. Made on each use, not kept in a static
        /// `let`: LeakSanitizer does not see the reference a global `Data` of this size holds (its storage pointer
        /// sits in an enum payload with spare bits), and `make sanitize` reported the bytes as leaked.
        static var body: Data { Data((0..<1000).map { UInt8(0x30 + $0 % 10) }) }

        @Test(arguments: [false, true])
        func aChunkedResponsesTrailerFieldsAreReadAfterItsBody(http2: Bool) async throws {
            let key = FaultServer.newKey("trailers")
            let base = http2 ? try await DuplexServer.tlsURL() : try await DuplexServer.plainURL()
            let transport = try Duplex.curl()
            let (_, body) = try await transport.send(
                HTTPRequest(url: Duplex.url(base, "/trailers", ["key": key])))
            #expect(body.trailerFields == nil, "available once the body has been read to its end, not before")
            let data = try await body.collect(upTo: 1 << 20)
            #expect(data == Self.body)
            let trailers = try #require(body.trailerFields)
            #expect(trailers[HTTPField.Name("X-Checksum")] == String(Adler32.checksum(Self.body)))
            #expect(trailers[HTTPField.Name("X-Count")] == "1000")
            #expect(trailers[HTTPField.Name("X-Secret")] == "s3cr3t")
            #expect(try await DuplexServer.hits(key).requests.map(\.protocol) == [http2 ? "HTTP/2" : "HTTP/1.1"])
        }

        @Test func aTypedCallAndAStreamKeepTheTrailerFields() async throws {
            let client = try loopbackClient(
                try await DuplexServer.plainURL(), transport: try Duplex.curl(), behavior: EmptyBehavior(),
                timeout: .seconds(10))
            let response = try await client.response(for: NetworkRequest<Data>(path: "/trailers"))
            #expect(response.body == Self.body)
            #expect(response.trailerFields?[HTTPField.Name("X-Count")] == "1000")
            let streamed = try await client.stream(NetworkRequest<Data>(path: "/trailers"))
            var count = 0
            for try await chunk in streamed { count += chunk.count }
            #expect(count == 1000)
            #expect(streamed.trailerFields?[HTTPField.Name("X-Checksum")] == String(Adler32.checksum(Self.body)))
        }

        @Test(arguments: [false, true])
        func aRequestBodysTrailerFieldsReachTheServerAfterItsLastChunk(streamed: Bool) async throws {
            // Set on the body before sending, or given by its producer as it finishes.
            let key = FaultServer.newKey("upload-trailers")
            let url = Duplex.url(try await DuplexServer.plainURL(), "/upload-trailers", ["key": key])
            let payload = Data("payload".utf8)
            var body: HTTPBody
            if streamed {
                let (stream, continuation) = HTTPBody.makeStream()
                continuation.yield(payload)
                continuation.finish(trailerFields: ["X-Checksum": "\(Adler32.checksum(payload))"])
                body = stream
            } else {
                body = .data(payload)
                body.trailerFields = ["X-Checksum": "\(Adler32.checksum(payload))"]
            }
            let transport = TestTransport.make()
            let request = HTTPRequest(method: .put, url: url, body: body)
            guard TestTransport.current == .curl else {
                let error = await #expect(throws: TransportError.self) { try await transport.send(request) }
                #expect(error?.message.contains("trailer fields") == true, "got \(String(describing: error))")
                #expect(error?.message.contains("PUT http://127.0.0.1") == true)
                #expect(try await DuplexServer.hits(key).count == 0)
                return
            }
            let (_, answer) = try await transport.send(request)
            _ = try await answer.collect(upTo: 1 << 16)
            let record = try await DuplexServer.completedRecord(key)
            #expect(record.received == "payload")
            #expect(record.trailers == [["X-Checksum", "\(Adler32.checksum(payload))"]])
        }

        @Test func trailerFieldsSetOnABodyMakeItGoOverHTTP1() async throws {
            // libcurl sends no request trailers on HTTP/2: a body that has them asks for HTTP/1.1.
            let key = FaultServer.newKey("tls-upload-trailers")
            var body = HTTPBody.data(Data("payload".utf8))
            body.trailerFields = ["X-Count": "7"]
            let transport = try Duplex.curl()
            let (_, answer) = try await transport.send(
                HTTPRequest(
                    method: .post, url: Duplex.url(try await DuplexServer.tlsURL(), "/upload-trailers", ["key": key]),
                    body: body))
            _ = try await answer.collect(upTo: 1 << 16)
            let record = try await DuplexServer.completedRecord(key)
            #expect(record.protocol == "HTTP/1.1")
            #expect(record.trailers == [["X-Count", "7"]])
        }

        @Test func aBodyMadeByAProducerGoesOverHTTP1SoItsTrailerFieldsCanFollowIt() async throws {
            // Known only at the end: the body goes chunked over HTTP/1.1 from the start, where they can follow it.
            let key = FaultServer.newKey("tls-streamed-trailers")
            let (body, continuation) = HTTPBody.makeStream()
            continuation.yield(Data("payload".utf8))
            continuation.finish(trailerFields: ["X-Count": "7"])
            let transport = try Duplex.curl()
            let url = Duplex.url(try await DuplexServer.tlsURL(), "/upload-trailers", ["key": key])
            let (_, answer) = try await transport.send(HTTPRequest(method: .post, url: url, body: body))
            _ = try await answer.collect(upTo: 1 << 16)
            let record = try await DuplexServer.completedRecord(key)
            #expect(record.protocol == "HTTP/1.1")
            #expect(record.trailers == [["X-Count", "7"]])
        }

        @Test func trailerFieldsAtTheEndOfABodyThatAnnouncedItsLengthFailTheCallAndTheRequestNeverEnds() async throws {
            // A length means no chunks, so nothing can follow the body: the call fails, and the hold-back of the last
            // byte keeps the server from ever seeing a complete request without its trailers.
            let key = FaultServer.newKey("length-trailers")
            let (body, continuation) = HTTPBody.makeStream(length: 7)
            continuation.yield(Data("payload".utf8))
            continuation.finish(trailerFields: ["X-Count": "7"])
            let transport = try Duplex.curl()
            let url = Duplex.url(try await DuplexServer.plainURL(), "/upload-trailers", ["key": key])
            let error = await #expect(throws: TransportError.self) {
                let (_, answer) = try await transport.send(HTTPRequest(method: .post, url: url, body: body))
                _ = try await answer.collect(upTo: 1 << 16)
            }
            #expect(error?.message.contains("announced its length") == true, "got \(String(describing: error))")
            var records = try await DuplexServer.hits(key).requests
            for _ in 0..<200 where records.isEmpty {
                try await Task.sleep(for: .milliseconds(10))
                records = try await DuplexServer.hits(key).requests
            }
            #expect(records.map(\.received) == ["payloa"])
            #expect(records.map(\.complete) == [false])
        }
    }
}
