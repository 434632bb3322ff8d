import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// `RecordingTransport` over the real URLSession transport and the fault server, which counts its hits.
    @Suite struct RecordingLoopbackTests {
        /// The headers a recording keeps of `fields`: all but the volatile and framing ones, by lower-cased name.
        static func kept(_ fields: HTTPFields) -> [String: String] {
            let dropped = RecordingOptions.volatileHeaderNames.union(RecordingOptions.framingHeaderNames)
            var kept: [String: String] = [:]
            for field in fields where !dropped.contains(field.name.canonicalName) {
                kept[field.name.canonicalName] = field.value
            }
            return kept
        }

        @Test func recordThenReplayGivesByteIdenticalBodiesAndTheSameStatusAndHeaders() async throws {
            let base = try await FaultServer.url()
            let key = FaultServer.newKey("record")
            let folder = try FixtureFolder([:])
            var options = RecordingOptions()
            options.jsonStyle = .asReceived
            let recorder = RecordingTransport(
                wrapping: TestTransport.make(), directory: folder.url, mode: .recordAll, options: options)
            let paths = [
                "/echo?key=\(key)&status=201", "/bytes/3000?key=\(key)", "/html?key=\(key)", "/status/404?key=\(key)",
            ]
            var live: [(HTTPResponse, Data)] = []
            for path in paths {
                live.append(
                    try await exchange(recorder, HTTPRequest(method: .get, url: URL(string: "\(base)\(path)")!)))
            }
            #expect(try await FaultServer.hits(key).count == paths.count)

            let replay = RecordingTransport(replaying: folder.url, options: options)
            for (path, (liveHead, liveBody)) in zip(paths, live) {
                let (head, body) = try await exchange(
                    replay, HTTPRequest(method: .get, url: URL(string: "\(base)\(path)")!))
                #expect(body == liveBody, "\(path)")
                #expect(head.status == liveHead.status, "\(path)")
                #expect(Self.kept(head.headerFields) == Self.kept(liveHead.headerFields), "\(path)")
                #expect(!liveBody.isEmpty || liveHead.status.code == 204)
            }
            #expect(try await FaultServer.hits(key).count == paths.count)
        }

        @Test func recordMissingGoesToTheServerOnlyForTheMissingRequest() async throws {
            let base = try await FaultServer.url()
            let key = FaultServer.newKey("missing")
            let folder = try FixtureFolder([:])
            let client = { (mode: RecordingTransport.Mode) in
                NetworkClient(
                    baseURL: base,
                    transport: RecordingTransport(wrapping: TestTransport.make(), directory: folder.url, mode: mode))
            }
            let first = client(.recordMissing)
            _ = try await first.send(NetworkRequest<Data>(path: "/ok", query: [URLQueryItem(name: "key", value: key)]))
            _ = try await first.send(
                NetworkRequest<Data>(path: "/status/200", query: [URLQueryItem(name: "key", value: key)]))
            #expect(try await FaultServer.hits(key).count == 2)

            let second = client(.recordMissing)
            _ = try await second.send(NetworkRequest<Data>(path: "/ok", query: [URLQueryItem(name: "key", value: key)]))
            _ = try await second.send(
                NetworkRequest<Data>(path: "/echo", query: [URLQueryItem(name: "key", value: key)]))
            _ = try await second.send(
                NetworkRequest<Data>(path: "/status/200", query: [URLQueryItem(name: "key", value: key)]))

            let hits = try await FaultServer.hits(key)
            #expect(hits.count == 3)
            #expect(hits.requests.map(\.path) == ["/ok", "/status/200", "/echo"])
        }

        @Test func noSecretSentToTheServerReachesTheFolder() async throws {
            let base = try await FaultServer.url()
            let key = FaultServer.newKey("secret")
            let folder = try FixtureFolder([:])
            let token = "loopback-token-\(UUID().uuidString)"
            let client = NetworkClient(
                baseURL: base,
                transport: RecordingTransport(wrapping: TestTransport.make(), directory: folder.url, mode: .recordAll))
            var request = NetworkRequest<Data>(
                path: "/echo",
                query: [URLQueryItem(name: "key", value: key), URLQueryItem(name: "access_token", value: token)])
            request.headers["Authorization"] = "Bearer \(token)"
            request.headers["Cookie"] = "session=\(token)"
            let echoed = try await client.send(request)

            #expect(String(decoding: echoed, as: UTF8.self).contains(token))  // the server did see it
            let files = filesUnder(folder.url)
            #expect(files.count == 2)
            for (name, data) in files {
                #expect(!String(decoding: data, as: UTF8.self).contains(token), "\(name) holds the token")
            }
        }

        @Test func anEventStreamIsRecordedAndReplayedAsItsEvents() async throws {
            let base = try await FaultServer.url()
            let key = FaultServer.newKey("sse")
            let folder = try FixtureFolder([:])
            let recorder = RecordingTransport(wrapping: TestTransport.make(), directory: folder.url, mode: .recordAll)
            let url = URL(string: "\(base)/sse?count=4&ms=20&key=\(key)")!
            let (_, liveBody) = try await exchange(recorder, HTTPRequest(method: .get, url: url))

            let replay = RecordingTransport(replaying: folder.url)
            let (head, body) = try await replay.send(HTTPRequest(method: .get, url: url))
            var chunks: [String] = []
            for try await chunk in body { chunks.append(String(decoding: chunk, as: UTF8.self)) }

            #expect(head.headerFields[.contentType] == "text/event-stream")
            #expect(Data(chunks.joined().utf8) == liveBody)
            #expect(chunks.count == 4)
            #expect(chunks.allSatisfy { $0.hasPrefix("id: ") && $0.hasSuffix("\n\n") })
        }

        @Test func aFolderRecordedFromTheServerShowsNoDriftAgainstIt() async throws {
            let base = try await FaultServer.url()
            let folder = try FixtureFolder([:])
            let client = NetworkClient(
                baseURL: base,
                transport: RecordingTransport(wrapping: TestTransport.make(), directory: folder.url, mode: .recordAll))
            _ = try await client.send(
                NetworkRequest<Data>(path: "/json", query: [URLQueryItem(name: "size", value: "300")]))
            _ = try await client.send(NetworkRequest<Data>(path: "/ok"))

            let report = await DriftReport.check(directory: folder.url, against: TestTransport.make(), baseURL: base)

            #expect(report.fixtures.count == 2)
            #expect(!report.hasDrift, "\(report)")
        }
    }
}
