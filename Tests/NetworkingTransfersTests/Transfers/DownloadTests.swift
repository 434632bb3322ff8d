import Foundation
import Networking
import NetworkingTesting
import Testing
import NetworkingTestSupport

/// `NetworkClient.download` on `MockTransport`: files, progress, atomic move, resume rules, disk errors.
@Suite struct DownloadTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("download-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func bytes(_ range: Range<Int>) -> Data { Data(range.map { UInt8($0 % 251) }) }

    static func chunks(of data: Data, size: Int) -> [Data] {
        stride(from: 0, to: data.count, by: size).map { data.subdata(in: $0..<min($0 + size, data.count)) }
    }

    @Test func theFileArrivesWholeWithMonotonicProgressEndingAtItsLength() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = Self.bytes(0..<10_000)
        let mock = MockTransport().stub(
            .get, "/file", .streamed(Self.chunks(of: body, size: 1000), headers: [.contentLength: "10000"]))
        let destination = folder.appendingPathComponent("file.bin")
        let call = try makeClient(transport: mock).download(NetworkRequest<Data>(path: "/file"), to: destination)
        let steps = Task { await call.progress.reduce(into: [TransferProgress]()) { $0.append($1) } }
        let result = try await call.value
        let progress = await steps.value
        #expect(try Data(contentsOf: destination) == body)
        #expect(result.byteCount == 10_000 && result.resumedFromByte == 0)
        #expect(progress.last == TransferProgress(completedBytes: 10_000, expectedBytes: 10_000))
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
        #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial"))
        #expect(!FileManager.default.fileExists(atPath: destination.path + ".partial-validator"))
    }

    @Test(arguments: [50_000, 100_000, 131_072, 200_000, 300_000])
    func chunksOfAnySizeAroundTheWriteSizeArriveWholeAndInOrder(chunkSize: Int) async throws {
        // Chunks that do not fit the 128 KiB gathering buffer, fill it exactly, or exceed it on their own.
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = Self.bytes(0..<1_000_003)
        let mock = MockTransport().stub(
            .get, "/file", .streamed(Self.chunks(of: body, size: chunkSize), headers: [.contentLength: "1000003"]))
        let destination = folder.appendingPathComponent("file.bin")
        let result = try await makeClient(transport: mock).download(
            NetworkRequest<Data>(path: "/file"), to: destination
        )
        .value
        #expect(result.byteCount == 1_000_003)
        #expect(try Data(contentsOf: destination) == body)
    }

    @Test func aCutTransferKeepsThePartialFileAndTheNextCallResumesItWithRangeAndIfRange() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = Self.bytes(0..<5000)
        let destination = folder.appendingPathComponent("file.bin")
        let cut = TransportError(.connectionLost, "cut")
        let mock = MockTransport().stub(
            .get, "/file",
            .streamed(
                Self.chunks(of: body.prefix(2000), size: 500), headers: [.contentLength: "5000", .eTag: "\"v1\""],
                end: .fail(cut)),
            .streamed(
                [body.subdata(in: 2000..<5000)], status: 206,
                headers: [.contentRange: "bytes 2000-4999/5000", .contentLength: "3000", .eTag: "\"v1\""]))
        let client = try makeClient(transport: mock)
        let first = try await expectNetworkError {
            try await client.download(NetworkRequest<Data>(path: "/file"), to: destination).value
        }
        #expect(first?.kind == .transport(.connectionLost))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination.path + ".partial")) == body.prefix(2000))
        let result = try await client.download(NetworkRequest<Data>(path: "/file"), to: destination).value
        #expect(mock.lastRequest?.header(.range) == "bytes=2000-")
        #expect(mock.lastRequest?.header(.ifRange) == "\"v1\"")
        #expect(result.resumedFromByte == 2000 && result.byteCount == 5000)
        #expect(try Data(contentsOf: destination) == body)
    }

    @Test func aTwoHundredToAResumeStartsTheFileOver() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        try Data("stale".utf8).write(to: URL(fileURLWithPath: destination.path + ".partial"))
        try Data("\"old\"".utf8).write(to: URL(fileURLWithPath: destination.path + ".partial-validator"))
        let mock = MockTransport().stub(.get, "/file", .data(Data("fresh file".utf8), headers: [.eTag: "\"new\""]))
        let result = try await makeClient(transport: mock).download(
            NetworkRequest<Data>(path: "/file"), to: destination
        )
        .value
        #expect(mock.lastRequest?.header(.ifRange) == "\"old\"")
        #expect(result.resumedFromByte == 0)
        #expect(try Data(contentsOf: destination) == Data("fresh file".utf8))
    }

    @Test func aFourSixteenMatchingThePartialFileMeansItIsComplete() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        try Data("done".utf8).write(to: URL(fileURLWithPath: destination.path + ".partial"))
        try Data("\"v1\"".utf8).write(to: URL(fileURLWithPath: destination.path + ".partial-validator"))
        let mock = MockTransport().stub(.get, "/file", .status(416, headers: [.contentRange: "bytes */4"]))
        let result = try await makeClient(transport: mock).download(
            NetworkRequest<Data>(path: "/file"), to: destination
        )
        .value
        #expect(result.byteCount == 4)
        #expect(try Data(contentsOf: destination) == Data("done".utf8))
    }

    @Test func aPartialFileWithoutAValidatorIsStartedOver() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        try Data("junk".utf8).write(to: URL(fileURLWithPath: destination.path + ".partial"))
        let mock = MockTransport().stub(.get, "/file", .data(Data("whole".utf8)))
        _ = try await makeClient(transport: mock).download(NetworkRequest<Data>(path: "/file"), to: destination)
            .value
        #expect(mock.lastRequest?.header(.range) == nil)
        #expect(try Data(contentsOf: destination) == Data("whole".utf8))
    }

    @Test func theDestinationIsReplacedOnlyWhenTheFileIsComplete() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        try Data("previous".utf8).write(to: destination)
        let mock = MockTransport().stub(
            .get, "/file", .streamed([Data("new ".utf8)], end: .fail(TransportError(.connectionLost, "cut"))))
        _ = try await expectNetworkError {
            try await makeClient(transport: mock).download(NetworkRequest<Data>(path: "/file"), to: destination)
                .value
        }
        #expect(try Data(contentsOf: destination) == Data("previous".utf8))
    }

    @Test func aFolderThatDoesNotExistIsAFileSystemErrorNamingTheRequest() async throws {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "missing-\(UUID().uuidString)/file.bin")
        let mock = MockTransport().stub(.get, "/file", .data(Data("x".utf8)))
        let error = try await expectNetworkError {
            try await makeClient(transport: mock).download(NetworkRequest<Data>(path: "/file"), to: destination)
                .value
        }
        #expect(error?.kind == .fileSystem)
        #expect(error?.requestName == "GET /file")
        #expect((error?.underlyingError as? DownloadFileError)?.operation == .open)
    }

    @Test func aBodyShorterThanItsLengthKeepsThePartialFile() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        let mock = MockTransport().stub(.get, "/file", .streamed([Data("abc".utf8)], headers: [.contentLength: "10"]))
        let error = try await expectNetworkError {
            try await makeClient(transport: mock).download(NetworkRequest<Data>(path: "/file"), to: destination)
                .value
        }
        #expect(error?.kind == .transport(.connectionLost))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(FileManager.default.fileExists(atPath: destination.path + ".partial"))
    }

    @Test func cancellingTheCallKeepsThePartialFileAndLeavesNoTask() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        let mock = MockTransport().stub(.get, "/file", .streamed([Data("abc".utf8)], end: .stall))
        let call = try makeClient(transport: mock).download(NetworkRequest<Data>(path: "/file"), to: destination)
        for await step in call.progress where step.completedBytes == 3 { break }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        try await BehaviorFakes.waitUntil { mock.openStreamCount == 0 }
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination.path + ".partial")) == Data("abc".utf8))
    }
}
