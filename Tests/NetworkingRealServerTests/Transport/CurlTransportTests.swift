import Foundation
import Networking
import NetworkingCurl
import Testing
import NetworkingTestSupport

extension RealServerTests {
    /// What only the libcurl transport promises, checked against the fault server (the rest of the real-server suite
    /// runs on both transports, see `TestTransport`).
    @Suite struct CurlTransportTests {
        static func client(_ configuration: CurlTransport.Configuration = .init()) async throws -> NetworkClient {
            try await FaultServer.client(transport: try CurlTransport(configuration: configuration))
        }

        @Test func getAndPostRoundTrip() async throws {
            let key = FaultServer.newKey("curl")
            let client = try await Self.client()
            let query = [URLQueryItem(name: "key", value: key)]
            let echo = try await client.send(NetworkRequest<FaultEcho>(path: "/echo", query: query))
            #expect(echo.method == "GET")
            let posted = try await client.send(
                NetworkRequest<FaultEcho>(.put, path: "/echo", query: query, body: .data(Data("hello".utf8))))
            #expect(posted.method == "PUT")
            #expect(posted.body == "hello")
            #expect(try await FaultServer.hits(key).count == 2)
        }

        @Test func sendsNothingTheRequestDidNotAskFor() async throws {
            let key = FaultServer.newKey("curl-raw")
            let client = try await Self.client()
            var request = NetworkRequest<FaultEcho>(
                .post, path: "/echo", query: [URLQueryItem(name: "key", value: key)],
                headers: ["X-Mixed-Case": "v"], body: .data(Data(repeating: 0x61, count: 2_000_000)))
            request.defaultAccept = nil
            _ = try await client.send(request)
            let record = try #require(try await FaultServer.hits(key).requests.first)
            let names = record.raw_headers.map { $0[0] }
            #expect(names.contains("X-Mixed-Case"))
            for absent in ["Accept", "Expect", "Pragma", "User-Agent"] {
                #expect(!names.contains { $0.lowercased() == absent.lowercased() }, "\(absent) was added")
            }
            #expect(record.headers["content-length"] == "2000000")
        }

        @Test(.enabled(if: hasTaskExecutors, "task executors need macOS 15 or iOS 18"))
        func callsRunOnTheTransportsExecutorWhenTheCallerPrefersIt() async throws {
            guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
            let key = FaultServer.newKey("curl-executor")
            let transport = try CurlTransport()
            let client = try await FaultServer.client(transport: transport)
            let query = [URLQueryItem(name: "key", value: key)]
            // Each answer is read on the loop thread: the call crossed no thread.
            let answers = try await withTaskExecutorPreference(transport.executor) {
                var answers: [String] = []
                for _ in 0..<3 {
                    let echo = try await client.send(NetworkRequest<FaultEcho>(path: "/echo", query: query))
                    answers.append("\(echo.method) on \(currentThreadName())")
                }
                let posted = try await client.send(
                    NetworkRequest<FaultEcho>(.post, path: "/echo", query: query, body: .data(Data("hi".utf8))))
                answers.append("\(posted.method) \(posted.body) on \(currentThreadName())")
                return answers
            }
            #expect(answers == Array(repeating: "GET on NetworkingCurl", count: 3) + ["POST hi on NetworkingCurl"])
            #expect(try await FaultServer.hits(key).count == 4)
        }

        @Test(.enabled(if: hasTaskExecutors, "task executors need macOS 15 or iOS 18"))
        func aStreamReadOnTheTransportsExecutorArrivesWhole() async throws {
            guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
            let key = FaultServer.newKey("curl-executor-stream")
            let transport = try CurlTransport()
            let client = try await FaultServer.client(transport: transport)
            let size = 8 << 20
            let request = NetworkRequest<Data>(path: "/resumable/\(size)", query: [.init(name: "key", value: key)])
            // The reader and the transfer share the loop thread: each chunk read lets the paused transfer go on.
            let (received, threads) = try await withTaskExecutorPreference(transport.executor) {
                var received = Data()
                var threads = Set<String>()
                for try await chunk in try await client.stream(request) {
                    received.append(chunk)
                    threads.insert(currentThreadName())
                }
                return (received, threads)
            }
            #expect(received == RealServerTests.DownloadRealServerTests.expected(size))
            #expect(threads == ["NetworkingCurl"])
            #expect(try await FaultServer.hits(key).count == 1)
        }

        @Test func repeatedResponseFieldsStaySeparate() async throws {
            let client = try await Self.client()
            let response = try await client.response(
                for: NetworkRequest<EmptyResponse>(
                    path: "/set-cookies", query: [URLQueryItem(name: "case", value: "expires")]))
            let cookies = response.response.headerFields[values: .setCookie]
            #expect(cookies.count == 2)
            #expect(cookies.first?.hasPrefix("a=1; Expires=Wed, 09 Jun 2100") == true)
        }

        @Test func forcingAMissingLibraryFailsAtConstruction() {
            #expect(throws: CurlUnavailableError.self) {
                _ = try CurlTransport(configuration: .init(libraryName: "libcurl-missing.so.9"))
            }
            // DefaultTransport picks between the transports where libcurl is part of the build: Linux and macOS
            // (Package.swift's condition; iOS, tvOS and watchOS build this suite but do not run it).
            #if os(Linux) || os(macOS)
                let choice = DefaultTransport.choose(prefersLibcurl: true) { () throws(CurlUnavailableError) in
                    try CurlTransport(configuration: .init(libraryName: "libcurl-missing.so.9"))
                }
                #expect(choice.transport is URLSessionTransport)
                #expect(choice.warning?.contains("libcurl-missing.so.9") == true)
            #endif
        }

        @Test func defaultsToLibcurlOnLinux() {
            #if os(Linux)
                #expect(DefaultTransport.shared is CurlTransport)
                #expect(DefaultTransport.selection.hasPrefix("CurlTransport"))
            #else
                #expect(DefaultTransport.shared is URLSessionTransport)
            #endif
        }
    }
}

extension RealServerTests.CurlTransportTests {
    @Test func engineMetricsReachTheMetricsBehavior() async throws {
        let collected = LockedBox<[AttemptMetrics]>([])
        let client = try await FaultServer.client(
            transport: try CurlTransport(), behavior: .metrics { metrics in collected.withLock { $0.append(metrics) } })
        for _ in 0..<2 { _ = try await client.send(NetworkRequest<Data>(path: "/bytes/1000")) }
        let metrics = collected.current
        #expect(metrics.count == 2)
        #expect(metrics.map(\.reusedConnection) == [false, true])
        let engine = try #require(metrics.last?.transport)
        #expect(engine.httpVersion == "HTTP/1.1")
        #expect(engine.bytesReceived == 1000)
        #expect(engine.firstByte != nil)
    }
}

extension RealServerTests.CurlTransportTests {
    @Test func aSlowReaderPausesTheTransferInsteadOfBufferingTheBody() async throws {
        // 20 MB on loopback arrive in a few milliseconds; a reader that stops after its first chunk must find the
        // buffer held at its limit (plus the one read libcurl had in hand), the rest waiting in the socket.
        let limit = 64 * 1024
        let transport = try CurlTransport(configuration: .init(bodyBufferLimit: limit))
        let url = try await FaultServer.url().appendingPathComponent("bytes/20000000")
        let (response, body) = try await transport.send(HTTPRequest(url: url))
        #expect(response.status.code == 200)
        var iterator = body.makeAsyncIterator()
        var total = try await iterator.next()?.count ?? 0
        try await Task.sleep(for: .milliseconds(300))
        let peak = try #require(body.buffer).peakBufferedBytes
        #expect(peak <= limit + 128 * 1024, "buffered \(peak) bytes")
        while let chunk = try await iterator.next() { total += chunk.count }
        #expect(total == 20_000_000)
        #expect(try #require(body.buffer).peakBufferedBytes <= limit + 128 * 1024)
    }
}
