import Foundation
import NetworkingHTTP
import NetworkingCore

/// The byte layout of a ``DiskHTTPCacheStore`` file, version 2:
///
/// `NWHC` (4 bytes), version (1 byte), then one record per stored variant of the URL, the most recent first: head
/// length (UInt32, big-endian), head (JSON), body length (UInt64, big-endian), body. The file must end exactly
/// after the last record. A file of another version is a miss. The head's `trailers` (the body's trailer fields) was
/// added in 1.1 as an optional key: files written before read as having none.
enum DiskHTTPCacheFormat {
    static let magic = Data("NWHC".utf8)
    static let version: UInt8 = 2
    /// Heads beyond this are refused on reading: no real entry has 16 MiB of headers.
    static let maximumHeadLength = 16 << 20

    /// What the JSON head holds.
    struct Head: Codable {
        var key: String
        var status: Int
        var fields: [[String]]
        var url: String?
        var vary: [String: String]
        var requestDate: Double
        var responseDate: Double
        var trailers: [[String]]?
    }

    static func encode(_ entry: HTTPCacheEntry, key: String) -> Data? {
        var data = magic
        data.append(version)
        var primary = entry
        primary.otherVariants = []
        for variant in [primary] + entry.otherVariants {
            let head = Head(
                key: key, status: variant.status, fields: variant.headerFields.map { [$0.name.rawName, $0.value] },
                url: variant.url?.absoluteString, vary: variant.varyingRequestFields,
                requestDate: variant.requestDate.timeIntervalSince1970,
                responseDate: variant.responseDate.timeIntervalSince1970,
                trailers: variant.trailerFields?.map { [$0.name.rawName, $0.value] })
            guard let json = try? JSONEncoder().encode(head), json.count <= maximumHeadLength else { return nil }
            append(UInt64(json.count), bytes: 4, to: &data)
            data.append(json)
            append(UInt64(variant.body.count), bytes: 8, to: &data)
            data.append(variant.body)
        }
        return data
    }

    /// The entry in `data`, or `nil` when anything about it is wrong, including a key other than `key`.
    static func decode(_ data: Data, key: String) -> HTTPCacheEntry? {
        let bytes = [UInt8](data)
        guard bytes.count >= 5, Data(bytes[0..<4]) == magic, bytes[4] == version else { return nil }
        var offset = 5
        var variants: [HTTPCacheEntry] = []
        while offset < bytes.count {
            guard let variant = record(bytes, at: &offset, key: key) else { return nil }
            variants.append(variant)
        }
        guard var entry = variants.first else { return nil }
        entry.otherVariants = Array(variants.dropFirst())
        return entry
    }

    /// One record at `offset`, which moves past it; `nil` when it is cut short or wrong.
    private static func record(_ bytes: [UInt8], at offset: inout Int, key: String) -> HTTPCacheEntry? {
        guard let headLength = read(bytes, at: &offset, count: 4), headLength <= UInt64(maximumHeadLength),
            bytes.count - offset >= Int(headLength)
        else { return nil }
        let json = Data(bytes[offset..<offset + Int(headLength)])
        offset += Int(headLength)
        guard let bodyLength = read(bytes, at: &offset, count: 8), UInt64(bytes.count - offset) >= bodyLength,
            let head = try? JSONDecoder().decode(Head.self, from: json), head.key == key,
            head.requestDate.isFinite, head.responseDate.isFinite, (100...999).contains(head.status)
        else { return nil }
        guard let fields = self.fields(head.fields) else { return nil }
        let trailers = head.trailers.map(self.fields)
        if trailers == .some(nil) { return nil }
        let body = Data(bytes[offset..<offset + Int(bodyLength)])
        offset += Int(bodyLength)
        var entry = HTTPCacheEntry(
            status: head.status, headerFields: fields, body: body, url: head.url.flatMap(URL.init),
            varyingRequestFields: head.vary, requestDate: Date(timeIntervalSince1970: head.requestDate),
            responseDate: Date(timeIntervalSince1970: head.responseDate))
        entry.trailerFields = trailers ?? nil
        return entry
    }

    /// `[name, value]` pairs as fields; `nil` when a pair or a field is wrong.
    private static func fields(_ pairs: [[String]]) -> HTTPFields? {
        var fields = HTTPFields()
        for pair in pairs {
            guard pair.count == 2 else { return nil }
            fields.append(HTTPField(name: HTTPField.Name(pair[0]), value: pair[1]))
        }
        return fields.invalidReason == nil ? fields : nil
    }

    private static func append(_ value: UInt64, bytes: Int, to data: inout Data) {
        for shift in stride(from: (bytes - 1) * 8, through: 0, by: -8) {
            data.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    private static func read(_ bytes: [UInt8], at offset: inout Int, count: Int) -> UInt64? {
        guard bytes.count - offset >= count else { return nil }
        var value: UInt64 = 0
        for index in offset..<offset + count { value = value << 8 | UInt64(bytes[index]) }
        offset += count
        return value
    }
}
