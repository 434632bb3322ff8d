import Foundation
import Networking
import NetworkingCore
import NetworkingFixtures
import NetworkingHTTP

extension Harness {
    /// A fixture manifest or a recorded one: read, or refused with a reason, never a crash; a manifest the
    /// recorder reads is one the fixture transport reads too.
    static func manifest(_ data: Data) {
        let plain = Result { () throws(FixtureTransport.Problem) in try FixtureTransport.Manifest.parse(data) }
        let recorded = Result { () throws(FixtureTransport.Problem) in try Cassette.parse(data) }
        if case .success = recorded, case .failure(let problem) = plain {
            check(false, "a recording the recorder reads is refused as a manifest: \(problem)")
        }
        if case .failure(let problem) = plain { check(!problem.reason.isEmpty, "a refusal says why") }
    }

    /// `DriftReport`'s comparison: a JSON value compared with itself shows no change, and with another value the
    /// changes name paths that start at the root.
    static func drift(_ data: Data) {
        let (left, right) = pair(data)
        guard let recorded = try? JSONSerialization.jsonObject(with: Data(left.utf8), options: [.fragmentsAllowed])
        else { return }
        check(FixtureDrift.compare(recorded, recorded).isEmpty, "a value has not drifted from itself")
        guard let live = try? JSONSerialization.jsonObject(with: Data(right.utf8), options: [.fragmentsAllowed])
        else { return }
        for change in FixtureDrift.compare(recorded, live) {
            check("\(change)".utf8.contains(UInt8(ascii: "$")), "a change names its path from the root: \(change)")
        }
    }

    /// A request built from user values (a path, a query item): either refused with a reason before any I/O, or
    /// built with a target that holds no space, line end, NUL or fragment, under the base URL's path.
    static func url(_ data: Data) {
        let (path, query) = pair(data)
        let builder = RequestBuilder(
            baseURL: URL(string: "https://api.example.test/v1"), encoder: JSONEncoder(), sensitiveHeaderNames: [],
            followsRedirects: true)
        let request = NetworkRequest<Data>(path: path, query: [URLQueryItem(name: query, value: path)])
        guard let built = try? builder.build(request, name: "GET fuzz") else { return }
        let target = built.path
        check(
            !target.utf8.contains { $0 == 0x20 || $0 == 0x0D || $0 == 0x0A || $0 == 0 || $0 == UInt8(ascii: "#") },
            "a built target holds no space, line end, NUL or fragment: \(target.debugDescription)")
        check(target.utf8.starts(with: "/v1".utf8), "a built target stays under the base URL's path: \(target)")
        check(built.authority == "api.example.test", "a path never changes the host: \(built.authority)")
    }
}
