import Foundation
import Networking
import NetworkingTesting
import NetworkingTestSupport
import Testing

/// What a drift check must not do: send a recorded `POST` to the live backend again unasked (it re-created an order
/// there), and report a value the recording scrubbed as drift (`$.echo string -> null`).
@Suite struct DriftSafetyTests {
    static func backend(_ body: String) -> MockTransport {
        MockTransport { _ in
            (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(body.utf8))
        }
    }

    @Test func recordedRequestsOfUnsafeMethodsAreListedNotSentUnlessAsked() async throws {
        let folder = try FixtureFolder([:])
        let recorder = RecordingTransport(
            wrapping: Self.backend(#"{"id": 7}"#), directory: folder.url, mode: .recordAll)
        _ = try await exchange(recorder, recordingRequest(.get, "/orders/7"))
        for method in [HTTPMethod.post, .put, .patch, .delete] {
            _ = try await exchange(recorder, recordingRequest(method, "/orders", body: Data(#"{"item": 7}"#.utf8)))
        }
        let live = Self.backend(#"{"id": 7}"#)
        let base = URL(string: "https://api.test")!

        let report = await DriftReport.check(directory: folder.url, against: live, baseURL: base)

        #expect(live.requests.map(\.method) == [.get])
        #expect(report.fixtures.map(\.request) == ["GET /orders/7"])
        #expect(report.unsent == ["DELETE /orders", "PATCH /orders", "POST /orders", "PUT /orders"])
        #expect(!report.hasDrift)
        #expect(
            report.description == """
                no drift in 1 recorded answers
                4 recorded requests of unsafe methods not sent again (sendingUnsafeMethods: true sends them): \
                DELETE /orders, PATCH /orders, POST /orders, PUT /orders
                """)

        let asked = await DriftReport.check(
            directory: folder.url, against: live, baseURL: base, sendingUnsafeMethods: true)
        #expect(asked.fixtures.count == 5 && asked.unsent.isEmpty)
        #expect(Set(live.requests.dropFirst().map(\.method)) == [.get, .post, .put, .patch, .delete])
    }

    @Test func aValueTheRecordingScrubbedIsNotComparedButItsKeyStillIs() async throws {
        let folder = try FixtureFolder([:])
        let recorder = RecordingTransport(
            wrapping: Self.backend(#"{"name": "Ada", "password": "hunter22", "session": {"token": "t-123456"}}"#),
            directory: folder.url, mode: .recordAll)
        _ = try await exchange(recorder, recordingRequest(.get, "/me"))
        let recorded = String(decoding: filesUnder(folder.url)["me.GET.json"] ?? Data(), as: UTF8.self)
        #expect(recorded.contains(#""password" : "<redacted>""#) && !recorded.contains("hunter22"))

        // The live backend sends another type where the recording holds `<redacted>`: no drift.
        let nulls = Self.backend(#"{"name": "Ada", "password": null, "session": {"token": 42}}"#)
        let report = await DriftReport.check(
            directory: folder.url, against: nulls, baseURL: URL(string: "https://api.test")!)
        #expect(!report.hasDrift, "\(report)")

        // A scrubbed key the live backend no longer sends is still drift, and so is a change elsewhere.
        let gone = Self.backend(#"{"name": 1, "session": {}}"#)
        let drifted = await DriftReport.check(
            directory: folder.url, against: gone, baseURL: URL(string: "https://api.test")!)
        #expect(
            drifted.fixtures.first?.changes == [
                .typeChanged("$.name", recorded: "string", live: "number"), .missingKey("$.password"),
                .missingKey("$.session.token"),
            ])
    }
}
