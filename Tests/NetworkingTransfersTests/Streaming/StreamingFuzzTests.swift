import Foundation
import Networking
import Testing
import NetworkingTestSupport

/// Seeded fuzzing of the two stream parsers: 100,000 random inputs each, biased towards the bytes that matter
/// (line ends, colons, field names, NUL, a BOM, invalid UTF-8), cut into random chunks. Each input is checked
/// against a plain reference implementation written from the rules, fed whole, so a crash, a hang or any
/// dependence on the chunking fails the test.
@Suite(.timeLimit(.minutes(2))) struct StreamingFuzzTests {
    static let inputs = 100_000

    static let pieces: [[UInt8]] =
        [
            "\n", "\r", "\r\n", ":", " ", "data", "id", "event", "retry", "data: x", "data: y\n", "\n\n", "12", "\u{0}",
            "é", "a", "b",
        ]
        .map { Array($0.utf8) } + [[0xEF, 0xBB, 0xBF], [0xFF], [0xE2, 0x82]]

    static func randomInput(_ generator: inout BehaviorFakes.SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...24, using: &generator) {
            if Int.random(in: 0..<8, using: &generator) == 0 {
                bytes.append(UInt8.random(in: 0...255, using: &generator))
            } else {
                bytes += pieces.randomElement(using: &generator) ?? []
            }
        }
        return bytes
    }

    static func randomCuts(_ count: Int, _ generator: inout BehaviorFakes.SeededGenerator) -> [Int] {
        guard count > 0 else { return [] }
        return (0..<Int.random(in: 0...4, using: &generator)).map { _ in Int.random(in: 0...count, using: &generator) }
            .sorted()
    }

    @Test func lineDecoderMatchesTheReferenceForEveryChunking() {
        var generator = BehaviorFakes.SeededGenerator(seed: 0x11E5)
        var mismatches = 0
        for _ in 0..<Self.inputs {
            let input = Self.randomInput(&generator)
            let cuts = Self.randomCuts(input.count, &generator)
            if LineDecoderTests.lines(input, cuts: cuts) != ReferenceParsers.lines(input) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func serverSentEventDecoderMatchesTheReferenceForEveryChunking() {
        var generator = BehaviorFakes.SeededGenerator(seed: 0x55E)
        var mismatches = 0
        var eventsSeen = 0
        for _ in 0..<Self.inputs {
            let input = Self.randomInput(&generator)
            let cuts = Self.randomCuts(input.count, &generator)
            let (events, decoder) = ServerSentEventDecoderTests.decode(input, cuts: cuts)
            let reference = ReferenceParsers.events(input)
            eventsSeen += events.count
            if events != reference.events || decoder.lastEventID != reference.lastEventID
                || decoder.reconnectionTime != reference.retry
            {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        #expect(eventsSeen > 10_000, "the inputs must exercise dispatch, not only garbage")
    }
}

/// Straightforward, slow implementations of the rules, on whole inputs, as test oracles.
enum ReferenceParsers {
    static func lines(_ bytes: [UInt8]) -> [String] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        var ended = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D || byte == 0x0A {
                lines.append(current)
                current = []
                if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                ended = true
            } else {
                current.append(byte)
                ended = false
            }
            index += 1
        }
        if !ended { lines.append(current) }
        return lines.map { String(decoding: $0, as: UTF8.self) }
    }

    static func events(_ input: [UInt8]) -> (events: [ServerSentEvent], lastEventID: String, retry: Duration?) {
        var bytes = input
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var all = lines(bytes)
        // The last piece is a line only if the input ends with a line end.
        if let last = bytes.last, last != 0x0A, last != 0x0D { all.removeLast() }
        var events: [ServerSentEvent] = []
        var data = ""
        var type = ""
        var idBuffer = ""
        var lastEventID = ""
        var retry: Duration?
        var blockRetry: Duration?
        for line in all {
            if line.isEmpty {
                lastEventID = idBuffer
                if !data.isEmpty {
                    data.removeLast()
                    events.append(
                        ServerSentEvent(
                            event: type.isEmpty ? "message" : type, data: data, id: lastEventID, retry: blockRetry))
                }
                (data, type, blockRetry) = ("", "", nil)
                continue
            }
            if line.hasPrefix(":") { continue }
            var name = line
            var value = ""
            if let colon = line.firstIndex(of: ":") {
                name = String(line[..<colon])
                value = String(line[line.index(after: colon)...])
                if value.hasPrefix(" ") { value.removeFirst() }
            }
            switch name {
            case "data": data += value + "\n"
            case "event": type = value
            case "id" where !value.contains("\u{0}"): idBuffer = value
            case "retry" where !value.isEmpty && value.utf8.allSatisfy({ (0x30...0x39).contains($0) }):
                if let milliseconds = Int64(value) {
                    retry = .milliseconds(milliseconds)
                    blockRetry = retry
                }
            default: break
            }
        }
        return (events, lastEventID, retry)
    }
}
