import NetworkingHTTP

/// Reads a chunked body (RFC 9112 §7.1) from its raw bytes, fed in pieces as they arrive: the data of each chunk,
/// then the trailer section, then the end. The transport decodes a response this way, libcurl passing the bytes
/// through undecoded (`CURLOPT_HTTP_TRANSFER_DECODING` off), only where it must see the response end before libcurl
/// ends the transfer (a request body still sending; see `CurlTransfer+ResponseEnd.swift`): libcurl hands over
/// neither the last chunk nor the end of the trailer section until then.
///
/// As lenient as libcurl 7.88's own decoder (`lib/http_chunks.c`), so both agree on where the body ends: a chunk
/// size of 1 to 16 hexadecimal digits, then anything up to the line feed (chunk extensions, RFC 9112 §7.1.1, are
/// skipped); a CR before a line feed is optional; after a chunk's data comes CRLF or LF and nothing else. Bytes past
/// the end are not read.
package struct ChunkedDecoder {
    private enum State: Equatable {
        /// Reading a chunk size; the digits so far.
        case size(digits: Int)
        /// Skipping the rest of a chunk-size line (extensions, whitespace, the CR) up to its LF.
        case sizeLineEnd
        /// Inside a chunk's data, with this many bytes to go.
        case data(remaining: UInt64)
        /// After a chunk's data: its CRLF (`sawCR` once the CR came).
        case dataEnd(sawCR: Bool)
        /// Reading a trailer line (or the empty line that ends the trailer section).
        case trailer
        /// The body has ended.
        case done
        /// The framing is broken.
        case failed
    }

    private var state = State.size(digits: 0)
    private var size: UInt64 = 0
    private var line: [UInt8] = []
    private var trailerBytes = 0

    /// The trailer fields read so far (complete once ``isComplete``).
    package private(set) var trailerFields = HTTPFields()
    /// Why the framing is broken, once it is.
    package private(set) var failure: String?

    /// The most bytes of trailer section read: a server cannot grow it without bound.
    package static let trailerLimit = 64 * 1024

    package init() {}

    /// Whether the body has ended (the last chunk and the trailer section have been read).
    package var isComplete: Bool { state == .done }

    /// Reads `bytes`, handing each run of body data to `data` in order. Returns the count of bytes read: all of
    /// them, unless the body ended or broke within them.
    @discardableResult
    package mutating func decode(_ bytes: UnsafeRawBufferPointer, data: (UnsafeRawBufferPointer) -> Void) -> Int {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .done, .failed:
                return index
            case .size(let digits):
                if let value = Self.hexValue(byte) {
                    guard digits < 16 else { return fail("a chunk size has more than 16 hexadecimal digits", index) }
                    size = size << 4 | UInt64(value)
                    state = .size(digits: digits + 1)
                } else if digits == 0 {
                    return fail("a chunk size is not hexadecimal", index)
                } else {
                    state = .sizeLineEnd
                    continue  // this byte may be the LF itself
                }
            case .sizeLineEnd:
                if byte == 0x0A {
                    state = size == 0 ? .trailer : .data(remaining: size)
                    size = 0
                }
            case .data(let remaining):
                let count = Int(min(remaining, UInt64(bytes.count - index)))
                data(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
                index += count
                let left = remaining - UInt64(count)
                state = left == 0 ? .dataEnd(sawCR: false) : .data(remaining: left)
                continue
            case .dataEnd(let sawCR):
                if byte == 0x0A {
                    state = .size(digits: 0)
                } else if byte == 0x0D, !sawCR {
                    state = .dataEnd(sawCR: true)
                } else {
                    return fail("a chunk's data is not followed by a line end", index)
                }
            case .trailer:
                trailerBytes += 1
                guard trailerBytes <= Self.trailerLimit else {
                    return fail("the trailer section is larger than \(Self.trailerLimit) bytes", index)
                }
                guard byte == 0x0A else {
                    line.append(byte)
                    break
                }
                if line.last == 0x0D { line.removeLast() }
                if line.isEmpty {
                    state = .done
                    return index + 1
                }
                // A line that is not a field is dropped: trailers are optional to process (RFC 9110 §6.5.1).
                if let field = line.withUnsafeBytes({ CurlHeadParser.field($0[...]) }) { trailerFields.append(field) }
                line.removeAll(keepingCapacity: true)
            }
            index += 1
        }
        return index
    }

    private mutating func fail(_ reason: String, _ index: Int) -> Int {
        failure = "broken chunked framing: \(reason)"
        state = .failed
        return index
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
