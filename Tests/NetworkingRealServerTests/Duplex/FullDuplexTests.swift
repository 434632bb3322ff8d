import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// A request body that waits on the response (Tests/README.md F39), on this run's transport, against the duplex
    /// server's plain HTTP/1.1 port: `CurlTransport` reads and writes the exchange at once and hands the response's
    /// end over as soon as the server ends it; `URLSessionTransport`, which collects a produced body before sending
    /// it, refuses such a request at once.
    @Suite struct FullDuplexTests {
        @Test func aSpeakingServerIsAnsweredChunkByChunkAndItsEndEndsTheExchange() async throws {
            // The server answers at once, sends 1,000 one-byte chunks, each after the client echoed the previous one,
            // then the last chunk; the client ends its request body only after the response has ended.
            let key = FaultServer.newKey("speak")
            let url = Duplex.url(try await DuplexServer.plainURL(), "/speak", ["key": key, "count": "1000"])
            let transport = TestTransport.make()
            let start = ContinuousClock.now
            switch TestTransport.current {
            case .curl:
                let (head, received, _) = try await Duplex.within { try await Duplex.converse(transport, url) }
                #expect(head.status == .ok)
                #expect(received == Duplex.spoken(1000))
                let record = try await DuplexServer.completedRecord(key)
                #expect(record.echoed_ok == true)
                #expect(record.sent == 1000)
                #expect(record.received == String(decoding: Duplex.spoken(1000), as: UTF8.self))
                #expect(try await DuplexServer.hits(key).count == 1)
            case .urlSession:
                let error = await #expect(throws: TransportError.self) {
                    try await Duplex.within { try await Duplex.converse(transport, url) }
                }
                #expect(error?.code == .other)
                #expect(error?.message.contains("waits on the response") == true, "got \(String(describing: error))")
                #expect(error?.message.contains("POST \(url.scheme!)://\(url.host!):\(url.port!)/speak") == true)
                #expect(ContinuousClock.now - start < .seconds(2))
                #expect(try await DuplexServer.hits(key).count == 0)
            }
        }

        @Test func anEchoedBodyComesBackPieceByPieceWhileItIsSent() async throws {
            // Each piece goes out only once the previous one came back: the request body ends first, then the
            // response.
            let key = FaultServer.newKey("echo")
            let url = Duplex.url(try await DuplexServer.plainURL(), "/echo", ["key": key])
            let transport = TestTransport.make()
            let (pieces, writer) = AsyncThrowingStream.makeStream(of: Data.self)
            var body = HTTPBody(once: pieces)
            body.waitsOnResponse = true
            writer.yield(Data("piece 0;".utf8))
            let request = HTTPRequest(method: .post, url: url, body: body)
            guard TestTransport.current == .curl else {
                let error = await #expect(throws: TransportError.self) { try await transport.send(request) }
                #expect(error?.message.contains("waits on the response") == true)
                #expect(try await DuplexServer.hits(key).count == 0)
                return
            }
            let echoed = try await Duplex.within {
                let (_, response) = try await transport.send(request)
                var echoed = Data()
                var next = 1
                for try await chunk in response {
                    echoed.append(chunk)
                    if echoed.count == Data((0..<next).map { "piece \($0);" }.joined().utf8).count {
                        if next == 10 {
                            writer.finish()
                        } else {
                            writer.yield(Data("piece \(next);".utf8))
                        }
                        next += 1
                    }
                }
                return echoed
            }
            let expected = (0..<10).map { "piece \($0);" }.joined()
            #expect(String(decoding: echoed, as: UTF8.self) == expected)
            let record = try await DuplexServer.completedRecord(key)
            #expect(record.received == expected)
        }

        @Test func aConversationGoesThroughTheClientAndItsBehaviors() async throws {
            // Through NetworkClient.stream, with retry and logging in the chain: neither reads the body, and the
            // response still ends when the server ends it.
            let key = FaultServer.newKey("speak-client")
            let client = try loopbackClient(
                try await DuplexServer.plainURL(), transport: TestTransport.make(),
                behavior: CombinedBehavior([.retry(clock: TestClock()), .logging(to: .discard)]),
                timeout: .seconds(20))
            let (answers, writer) = AsyncThrowingStream.makeStream(of: Data.self)
            var body = HTTPBody(once: answers)
            body.waitsOnResponse = true
            let request = NetworkRequest<Data>(
                .post, path: "/speak", query: Faults.query(key, ["count": "100"]), body: .stream(body))
            guard TestTransport.current == .curl else {
                let error = try await expectNetworkError { try await client.stream(request) }
                // every engine: URLSessionTransport's own refusal, before anything is sent.
                #expect(error?.kind == .transport(.other))
                #expect(error?.message.contains("waits on the response") == true)
                #expect(try await DuplexServer.hits(key).count == 0)
                return
            }
            let received = try await Duplex.within {
                let streamed = try await client.stream(request)
                var received = Data()
                for try await chunk in streamed {
                    received.append(chunk)
                    writer.yield(chunk)
                }
                writer.finish()
                return received
            }
            #expect(received == Duplex.spoken(100))
            #expect(try await DuplexServer.completedRecord(key).echoed_ok == true)
        }
    }
}
