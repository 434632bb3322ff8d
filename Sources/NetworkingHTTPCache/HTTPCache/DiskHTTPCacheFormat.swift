import Foundation
import NetworkingHTTP
import NetworkingCore

/// The byte layout of a ``DiskHTTPCacheStore`` file, version 1:
///
/// `NWHC` (4 bytes), version (1 byte), head length (UInt32, big-endian), head (JSON), body length (UInt64,
/// big-endian), body. The file must end exactly after the body.
enum DiskHTTPCacheFormat {
    static let magic = Data("NWHC".utf8)
    static let version: UInt8 = 1
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
    }

    static func encode(_ entry: HTTPCacheEntry, key: String) -> Data? {
        let head = Head(
            key: key, status: entry.status, fields: entry.headerFields.map { [$0.name.rawName, $0.value] },
            url: entry.url?.absoluteString, vary: entry.varyingRequestFields,
            requestDate: entry.requestDate.timeIntervalSince1970, responseDate: entry.responseDate.timeIntervalSince1970
        )
        guard let json = try? JSONEncoder().encode(head), json.count <= maximumHeadLength else { return nil }
        var data = magic
        data.append(version)
        append(UInt64(json.count), bytes: 4, to: &data)
        data.append(json)
        append(UInt64(entry.body.count), bytes: 8, to: &data)
        data.append(entry.body)
        return data
    }

    /// The entry in `data`, or `nil` when anything about it is wrong, including a key other than `key`.
    static func decode(_ data: Data, key: String) -> HTTPCacheEntry? {
        let bytes = [UInt8](data)
        var offset = 0
        guard bytes.count >= 5, Data(bytes[0..<4]) == magic, bytes[4] == version else { return nil }
        offset = 5
        guard let headLength = read(bytes, at: &offset, count: 4), headLength <= UInt64(maximumHeadLength),
            bytes.count - offset >= Int(headLength)
        else { return nil }
        let json = Data(bytes[offset..<offset + Int(headLength)])
        offset += Int(headLength)
        guard let bodyLength = read(bytes, at: &offset, count: 8), UInt64(bytes.count - offset) == bodyLength,
            let head = try? JSONDecoder().decode(Head.self, from: json), head.key == key,
            head.requestDate.isFinite, head.responseDate.isFinite, (100...999).contains(head.status)
        else { return nil }
        var fields = HTTPFields()
        for pair in head.fields {
            guard pair.count == 2 else { return nil }
            fields.append(HTTPField(name: HTTPField.Name(pair[0]), value: pair[1]))
        }
        guard fields.invalidReason == nil else { return nil }
        return HTTPCacheEntry(
            status: head.status, headerFields: fields, body: Data(bytes[offset...]), url: head.url.flatMap(URL.init),
            varyingRequestFields: head.vary, requestDate: Date(timeIntervalSince1970: head.requestDate),
            responseDate: Date(timeIntervalSince1970: head.responseDate))
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
