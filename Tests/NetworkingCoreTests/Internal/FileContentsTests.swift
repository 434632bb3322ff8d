import Foundation
import NetworkingHTTP
import Testing

/// `FileContents.read` answers what `Data(contentsOf:)` answers; it only skips reading an empty file, whose buffer
/// swift-foundation leaks (make sanitize's leak check would report it again).
@Suite struct FileContentsTests {
    private static func file(_ bytes: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("file-contents-\(UUID().uuidString)")
        try bytes.write(to: url)
        return url
    }

    @Test(arguments: [Data(), Data("a".utf8), Data(repeating: 0x2A, count: 70_000)])
    func readsWhatTheFileHolds(bytes: Data) throws {
        let url = try Self.file(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try FileContents.read(url) == bytes)
        #expect(try FileContents.read(url) == Data(contentsOf: url))
    }

    @Test func aMissingFileThrowsWhatFoundationThrows() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)")
        let ours = try expectError { _ = try FileContents.read(url) } as NSError
        let foundations = try expectError { _ = try Data(contentsOf: url) } as NSError
        #expect(ours.domain == foundations.domain && ours.code == foundations.code)
    }

    @Test func aDirectoryIsNotReadAsAnEmptyFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: (any Error).self) { try FileContents.read(url) }
    }

    private func expectError(_ body: () throws -> Void) throws -> any Error {
        do {
            try body()
        } catch {
            return error
        }
        Issue.record("expected an error")
        throw CancellationError()
    }
}
