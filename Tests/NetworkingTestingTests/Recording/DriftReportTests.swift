import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

@Suite struct DriftReportTests {
    static func backend(_ body: String, status: Int = 200) -> MockTransport {
        MockTransport { request in
            (
                HTTPResponse(status: .init(code: status), headerFields: [.contentType: "application/json"]),
                Data(body.replacingOccurrences(of: "PATH", with: request.path).utf8)
            )
        }
    }

    static let recorded =
        #"{"name": "France", "area": 551695, "capital": ["Paris"], "flags": {"png": "f.png"}, "path": "PATH"}"#

    @Test func aDriftedBackendIsReportedFieldByField() async throws {
        let folder = try FixtureFolder([:])
        let recorder = RecordingTransport(
            wrapping: Self.backend(Self.recorded), directory: folder.url, mode: .recordAll, basePath: "/v1")
        _ = try await exchange(recorder, recordingRequest(.get, "/v1/alpha/fr"))
        _ = try await exchange(recorder, recordingRequest(.get, "/v1/alpha/de"))

        let drifted =
            #"{"name": {"common": "France"}, "area": 551695, "capital": "Paris", "flags": {"svg": "f.svg"}, "region": "Europe", "path": "PATH"}"#
        let live = MockTransport { request in
            request.path.hasSuffix("/de")
                ? (HTTPResponse(status: .notFound, headerFields: [:]), Data())
                : (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(drifted.utf8))
        }
        let report = await DriftReport.check(
            directory: folder.url, against: live, baseURL: URL(string: "https://api.test/v1")!)

        #expect(live.requests.map(\.path).sorted() == ["/v1/alpha/de", "/v1/alpha/fr"])
        #expect(report.fixtures.map(\.request) == ["GET /alpha/de", "GET /alpha/fr"])
        #expect(report.fixtures[0].changes == [.status(recorded: 200, live: 404)])
        #expect(
            report.fixtures[1].changes == [
                .typeChanged("$.capital", recorded: "array", live: "string"),
                .missingKey("$.flags.png"), .newKey("$.flags.svg"),
                .typeChanged("$.name", recorded: "string", live: "object"), .newKey("$.region"),
            ])
        #expect(
            report.description == """
                2 of 2 recorded answers drifted:
                  GET /alpha/de (alpha/de.GET.json): status 200 -> 404
                  GET /alpha/fr (alpha/fr.GET.json): type of $.capital array -> string; missing key $.flags.png; \
                new key $.flags.svg; type of $.name string -> object; new key $.region
                """)
    }

    @Test func anUnchangedBackendHasNoDriftEvenWhenValuesChange() async throws {
        let folder = try FixtureFolder([:])
        let recorder = RecordingTransport(
            wrapping: Self.backend(Self.recorded), directory: folder.url, mode: .recordAll)
        _ = try await exchange(recorder, recordingRequest(.get, "/alpha/fr"))
        let live = Self.backend(Self.recorded.replacingOccurrences(of: "551695", with: "643801"))

        let report = await DriftReport.check(
            directory: folder.url, against: live, baseURL: URL(string: "https://api.test")!)

        #expect(!report.hasDrift)
        #expect(report.description == "no drift in 1 recorded answers")
    }

    struct Country: Decodable, Equatable {
        let name: String
        let capital: [String]
    }

    @Test func aRecordedBodyDecodesIntoTheRequestsResponseTypeInOneLine() async throws {
        let folder = try FixtureFolder([:])
        let recorder = RecordingTransport(
            wrapping: Self.backend(Self.recorded), directory: folder.url, mode: .recordAll, basePath: "/v1")
        _ = try await exchange(recorder, recordingRequest(.get, "/v1/alpha/fr"))

        let france = try await RecordedFixtures.decode(
            NetworkRequest<Country>(path: "/alpha/fr"), from: folder.url, basePath: "/v1")

        #expect(france == Country(name: "France", capital: ["Paris"]))
        struct Renamed: Decodable { let commonName: String }
        let error = try await expectNetworkError {
            try await RecordedFixtures.decode(
                NetworkRequest<Renamed>(path: "/alpha/fr"), from: folder.url, basePath: "/v1")
        }
        #expect(error?.kind == .decoding)
    }
}
