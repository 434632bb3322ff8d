import Foundation
import Networking
import Testing
import NetworkingTestSupport

@Suite struct LineDecoderTests {
    /// Feeds `input` cut at `cuts` (byte offsets) and returns every line, `finish()` included.
    static func lines(_ input: [UInt8], cuts: [Int]) -> [String] {
        var decoder = LineDecoder()
        var lines: [String] = []
        var start = 0
        for cut in cuts + [input.count] {
            lines += decoder.decode(Data(input[start..<cut]))
            start = cut
        }
        return lines + decoder.finish()
    }

    /// Every way of cutting `input` once, plus one byte at a time: the lines must never depend on the chunking.
    static func chunkings(of input: [UInt8]) -> [[Int]] {
        (0...input.count).map { [$0] } + [Array(0...input.count)]
    }

    @Test(arguments: [
        ("", [String]()),
        ("a", ["a"]),
        ("a\n", ["a"]),
        ("a\r", ["a"]),
        ("a\r\n", ["a"]),
        ("a\n\nb", ["a", "", "b"]),
        ("a\r\rb", ["a", "", "b"]),
        ("a\r\n\r\nb", ["a", "", "b"]),
        ("a\n\rb", ["a", "", "b"]),
        ("\r\n", [""]),
        ("\n\r\n\r", ["", "", ""]),
        ("caf\u{E9} \u{1F600}\nx", ["caf\u{E9} \u{1F600}", "x"]),
    ])
    func splitsLinesWhateverTheChunking(input: String, expected: [String]) {
        let bytes = Array(input.utf8)
        for cuts in Self.chunkings(of: bytes) {
            #expect(Self.lines(bytes, cuts: cuts) == expected, "cut at \(cuts)")
        }
    }

    @Test func aCarriageReturnEndingAChunkAndALineFeedStartingTheNextAreOneLineEnd() {
        var decoder = LineDecoder()
        #expect(decoder.decode(Data("one\r".utf8)) == ["one"])
        #expect(decoder.decode(Data("\ntwo".utf8)) == [])
        #expect(decoder.decode(Data("\n".utf8)) == ["two"])
        #expect(decoder.finish() == [])
    }

    @Test func aLineFeedAfterAnEmptyChunkFollowingACarriageReturnStillPairsWithIt() {
        var decoder = LineDecoder()
        #expect(decoder.decode(Data("a\r".utf8)) == ["a"])
        #expect(decoder.decode(Data()) == [])
        #expect(decoder.decode(Data("\nb\n".utf8)) == ["b"])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        var decoder = LineDecoder()
        #expect(decoder.decode(Data([0x61, 0xFF, 0x0A])) == ["a\u{FFFD}"])
    }

    @Test func aMultibyteCharacterSplitAcrossChunksDecodesWhole() {
        let bytes = Array("\u{1F600}\n".utf8)
        var decoder = LineDecoder()
        #expect(decoder.decode(Data(bytes[..<2])) == [])
        #expect(decoder.decode(Data(bytes[2...])) == ["\u{1F600}"])
    }
}
