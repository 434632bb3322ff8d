import Foundation
import Testing

@testable import NetworkingCurl
import NetworkingHTTP
import NetworkingTestSupport

/// The chunked body reader the transport uses while a request body still sends (RFC 9112 §7.1), as a table: each
/// row is read whole and split at every byte, which must give the same result.
@Suite struct ChunkedDecoderTests {
    struct Row: Sendable, CustomStringConvertible {
        let wire: String
        let body: String
        /// The trailer fields as `name: value`; `nil` when the body must not be complete.
        let trailers: [String]?
        /// Words of the failure, when the framing is broken.
        let failure: String?
        let rule: String
        var description: String { rule }
    }

    static let rows: [Row] = [
        Row(wire: "5\r\nhello\r\n0\r\n\r\n", body: "hello", trailers: [], failure: nil, rule: "RFC 9112 §7.1"),
        Row(
            wire: "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", body: "hello world", trailers: [], failure: nil,
            rule: "RFC 9112 §7.1: chunks in order"),
        Row(
            wire: "A\r\n0123456789\r\n0\r\n\r\n", body: "0123456789", trailers: [], failure: nil,
            rule: "RFC 9112 §7.1: chunk-size is HEXDIG, either case"),
        Row(
            wire: "5;name=value\r\nhello\r\n0;last\r\n\r\n", body: "hello", trailers: [], failure: nil,
            rule: "RFC 9112 §7.1.1: chunk extensions are ignored"),
        Row(
            wire: "5 \r\nhello\r\n0\r\n\r\n", body: "hello", trailers: [], failure: nil,
            rule: "RFC 9112 §7.1.1: BWS before an extension, as libcurl reads it"),
        Row(
            wire: "5\nhello\n0\n\n", body: "hello", trailers: [], failure: nil,
            rule: "RFC 9112 §2.2: a bare LF ends a line"),
        Row(
            wire: "5\r\nhello\r\n0\r\nX-Checksum: 42\r\nx-count:  5 \r\n\r\n", body: "hello",
            trailers: ["X-Checksum: 42", "x-count: 5"], failure: nil,
            rule: "RFC 9112 §7.1.2: the trailer section, names as sent, values without OWS"),
        Row(
            wire: "5\r\nhello\r\n0\r\nno colon\r\n\r\n", body: "hello", trailers: [], failure: nil,
            rule: "RFC 9110 §6.5.1: a line that is not a field is dropped, the body stands"),
        Row(
            wire: "5\r\nhello\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n", body: "hello", trailers: [], failure: nil,
            rule: "RFC 9112 §7.1: nothing after the end is body"),
        Row(wire: "5\r\nhel", body: "hel", trailers: nil, failure: nil, rule: "a body cut short is not complete"),
        Row(
            wire: "5\r\nhello\r\n0\r\nX-A: 1\r\n", body: "hello", trailers: nil, failure: nil,
            rule: "RFC 9112 §7.1.2: not complete before the empty line"),
        Row(
            wire: "zz\r\n", body: "", trailers: nil, failure: "not hexadecimal",
            rule: "RFC 9112 §7.1: chunk-size = 1*HEXDIG"),
        Row(
            wire: "\r\n", body: "", trailers: nil, failure: "not hexadecimal",
            rule: "RFC 9112 §7.1: chunk-size = 1*HEXDIG"),
        Row(
            wire: "5\r\nhelloXX", body: "hello", trailers: nil, failure: "not followed by a line end",
            rule: "RFC 9112 §7.1: chunk-data CRLF"),
        Row(
            wire: "11111111111111111\r\n", body: "", trailers: nil, failure: "more than 16",
            rule: "a chunk size past 64 bits, as libcurl refuses it"),
    ]

    static func decode(_ wire: [UInt8], splitAt split: Int?) -> (ChunkedDecoder, Data) {
        var decoder = ChunkedDecoder()
        var body = Data()
        let parts = split.map { [Array(wire[..<$0]), Array(wire[$0...])] } ?? [wire]
        for part in parts {
            part.withUnsafeBytes { bytes in
                _ = decoder.decode(bytes) { body.append(contentsOf: $0) }
            }
        }
        return (decoder, body)
    }

    @Test(arguments: rows)
    func readsTheFramingAtAnySplit(row: Row) {
        let wire = Array(row.wire.utf8)
        for split in [nil] + (0...wire.count).map(Optional.some) {
            let (decoder, body) = Self.decode(wire, splitAt: split)
            #expect(
                String(decoding: body, as: UTF8.self) == row.body, "\(row.rule), split at \(String(describing: split))")
            #expect(decoder.isComplete == (row.trailers != nil), "\(row.rule)")
            if let trailers = row.trailers {
                #expect(decoder.trailerFields.map { "\($0.name.rawName): \($0.value)" } == trailers, "\(row.rule)")
            }
            if let failure = row.failure {
                #expect(
                    decoder.failure?.contains(failure) == true, "\(row.rule): \(String(describing: decoder.failure))")
            } else {
                #expect(decoder.failure == nil, "\(row.rule)")
            }
        }
    }

    @Test func theEndIsReportedAtTheByteAfterTheEmptyLine() {
        let wire = Array("3\r\nabc\r\n0\r\n\r\nnext".utf8)
        var decoder = ChunkedDecoder()
        let read = wire.withUnsafeBytes { decoder.decode($0) { _ in } }
        #expect(read == wire.count - 4)
        #expect(decoder.isComplete)
    }

    @Test func aTrailerSectionLargerThanTheLimitBreaksTheFraming() {
        let wire = Array(
            ("0\r\nX-Big: " + String(repeating: "x", count: ChunkedDecoder.trailerLimit) + "\r\n\r\n").utf8)
        let (decoder, _) = Self.decode(wire, splitAt: nil)
        #expect(!decoder.isComplete)
        #expect(decoder.failure?.contains("trailer section is larger") == true)
    }
}
