import Foundation

// Two builds of one target. `make fuzz` compiles it with `-sanitize=fuzzer,address -DFUZZING` and links its objects
// with libFuzzer's main itself (SwiftPM would link an executable through a main of the module's own): libFuzzer
// then drives the harness named by FUZZ_HARNESS, with its usual arguments. Any other build (`swift build`) makes a replayer
// instead: `Fuzz <harness> <file or folder>...` runs inputs (a corpus, a crash libFuzzer wrote) through a harness
// once, which is how a crash becomes a unit test and how `make fuzz` checks its corpora still pass.

#if FUZZING
    /// The harness of this run, named by FUZZ_HARNESS.
    let selectedHarness: Harness = {
        let name = ProcessInfo.processInfo.environment["FUZZ_HARNESS"] ?? ""
        guard let harness = Harness(rawValue: name) else {
            fatalError("FUZZ_HARNESS must name a harness: \(Harness.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return harness
    }()

    /// libFuzzer's entry point: one input through the selected harness. (This build has no main of its own:
    /// `make fuzz` links the module's objects with libFuzzer's.)
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        selectedHarness.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }
#else
    @main
    struct FuzzReplay {
        static func main() throws {
            let arguments = Array(CommandLine.arguments.dropFirst())
            guard let name = arguments.first, let harness = Harness(rawValue: name), arguments.count > 1 else {
                let names = Harness.allCases.map(\.rawValue).joined(separator: "|")
                FileHandle.standardError.write(Data("usage: Fuzz <\(names)> <file or folder>...\n".utf8))
                exit(2)
            }
            var count = 0
            for path in arguments.dropFirst() {
                for file in try inputs(at: URL(fileURLWithPath: path)) {
                    harness.run(try Data(contentsOf: file))
                    count += 1
                }
            }
            print("\(harness.rawValue): \(count) inputs passed")
        }

        static func inputs(at url: URL) throws -> [URL] {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return [] }
            guard isFolder.boolValue else { return [url] }
            return try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                .filter { $0.lastPathComponent.utf8.first != UInt8(ascii: ".") }.sorted { $0.path < $1.path }
        }
    }
#endif
