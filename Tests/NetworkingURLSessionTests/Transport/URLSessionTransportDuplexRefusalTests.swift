import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// What `URLSessionTransport` cannot send is refused at once, naming the request, before any I/O: a body that waits
/// on the response (it would wait forever: the transport collects a produced body first) and trailer fields (no
/// Foundation API sends them). Port 9 of loopback: any I/O would be refused differently (`cannotConnect`).
@Suite struct URLSessionTransportDuplexRefusalTests {
    static let url = URL(string: "http://127.0.0.1:9/speak?secret=1")!

    @Test func aBodyThatWaitsOnTheResponseIsRefusedAtOnce() async throws {
        let (answers, writer) = AsyncThrowingStream.makeStream(of: Data.self)
        defer { writer.finish() }
        var body = HTTPBody(once: answers)
        body.waitsOnResponse = true
        let request = HTTPRequest(method: .post, url: Self.url, body: body)
        // Without the refusal the transport would collect the body, which never ends: a hang, cut here by a bound
        // (a guard against hanging the suite, not a measure of time).
        let outcome = await withTaskGroup(of: Result<Void, any Error>?.self) { group in
            group.addTask {
                do {
                    _ = try await URLSessionTransport().send(request)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        let error =
            try #require(outcome.flatMap { if case .failure(let error) = $0 { error } else { nil } })
            as? TransportError
        #expect(error?.code == .other)
        #expect(error?.message.contains("POST http://127.0.0.1:9/speak: its body waits on the response") == true)
        #expect(error?.message.contains("secret") == false, "the query may hold secrets")
    }

    @Test func trailerFieldsSetOnABodyAreRefusedAtOnce() async throws {
        var body = HTTPBody.data(Data("x".utf8))
        body.trailerFields = ["X-Checksum": "1"]
        let error = await #expect(throws: TransportError.self) {
            try await URLSessionTransport().send(HTTPRequest(method: .put, url: Self.url, body: body))
        }
        #expect(error?.message.contains("PUT http://127.0.0.1:9/speak: its body has trailer fields") == true)
    }

    @Test func trailerFieldsAProducerFinishesWithAreRefusedBeforeAnyIO() async throws {
        let (body, continuation) = HTTPBody.makeStream()
        continuation.yield(Data("x".utf8))
        continuation.finish(trailerFields: ["X-Checksum": "1"])
        let error = await #expect(throws: TransportError.self) {
            try await URLSessionTransport().send(HTTPRequest(method: .put, url: Self.url, body: body))
        }
        #expect(error?.code == .other, "not cannotConnect: nothing was sent")
        #expect(error?.message.contains("finished with trailer fields") == true, "got \(String(describing: error))")
    }
}
