import Foundation
import NetworkingHTTP
import NetworkingCore

/// What changed between one recorded answer and the live backend's answer to the same request, as a
/// ``DriftReport`` lists it.
///
/// JSON bodies are compared by shape, not by value: a key the recording has and the live body lacks, a key the
/// live body adds, and a value whose JSON type changed (at a path such as `$.items[0].name`). Arrays are compared
/// by their first element. A value the recording scrubbed (the string `<redacted>`) is not compared: the recording
/// no longer knows its type.
public struct FixtureDrift: Sendable, Hashable, CustomStringConvertible {
    /// One difference.
    public enum Change: Sendable, Hashable, CustomStringConvertible {
        /// The status code differs.
        case status(recorded: Int, live: Int)
        /// The recording has this key; the live body does not.
        case missingKey(String)
        /// The live body has this key; the recording does not.
        case newKey(String)
        /// The value at this path has another JSON type (`object`, `array`, `string`, `number`, `bool`, `null`).
        case typeChanged(String, recorded: String, live: String)
        /// The recorded body is JSON and the live one is not.
        case notJSON
        /// The request failed: the error's description.
        case failed(String)

        /// The change in a few words, such as `new key $.region` or `status 200 -> 404`.
        public var description: String {
            switch self {
            case .status(let recorded, let live): "status \(recorded) -> \(live)"
            case .missingKey(let path): "missing key \(path)"
            case .newKey(let path): "new key \(path)"
            case .typeChanged(let path, let recorded, let live): "type of \(path) \(recorded) -> \(live)"
            case .notJSON: "the live body is not JSON"
            case .failed(let reason): "the request failed: \(reason)"
            }
        }
    }

    /// The recorded request, as its manifest key, with `#n` for the n-th answer of a sequence.
    public let request: String
    /// The recorded answer's file, relative to the folder; `nil` for an answer without one.
    public let file: String?
    /// The differences, in order: status first, then keys by path; empty when nothing drifted.
    public let changes: [Change]

    /// Creates a drift entry.
    ///
    /// - Parameters:
    ///   - request: The recorded request.
    ///   - file: The recorded answer's file.
    ///   - changes: The differences.
    public init(request: String, file: String?, changes: [Change]) {
        self.request = request
        self.file = file
        self.changes = changes
    }

    /// `request (file): change; change`, or `request: no drift`.
    public var description: String {
        let name = file.map { "\(request) (\($0))" } ?? request
        return changes.isEmpty ? "\(name): no drift" : "\(name): " + changes.map(\.description).joined(separator: "; ")
    }

    /// The shape differences of two JSON values.
    package static func compare(_ recorded: Any, _ live: Any, at path: String = "$") -> [Change] {
        if let scrubbed = recorded as? String, scrubbed == Redaction.placeholder { return [] }
        let (recordedType, liveType) = (typeName(recorded), typeName(live))
        guard recordedType == liveType else { return [.typeChanged(path, recorded: recordedType, live: liveType)] }
        switch (recorded, live) {
        case (let old as [String: Any], let new as [String: Any]):
            var changes: [Change] = []
            for key in Set(old.keys).union(new.keys).sorted() {
                let child = "\(path).\(key)"
                switch (old[key], new[key]) {
                case (let before?, let after?): changes += compare(before, after, at: child)
                case (_?, nil): changes.append(.missingKey(child))
                case (nil, _?): changes.append(.newKey(child))
                case (nil, nil): break
                }
            }
            return changes
        case (let old as [Any], let new as [Any]):
            guard let first = old.first, let other = new.first else { return [] }
            return compare(first, other, at: "\(path)[0]")
        default:
            return []
        }
    }

    static func typeName(_ value: Any) -> String {
        switch value {
        case is [String: Any]: return "object"
        case is [Any]: return "array"
        case is String: return "string"
        case is NSNull: return "null"
        case let number as NSNumber:
            let kind = String(cString: number.objCType)
            return kind == "c" || kind == "B" ? "bool" : "number"
        default: return "\(type(of: value))"
        }
    }
}
