import Foundation
import NetworkingCore
import NetworkingHTTP

/// Turns an `Encodable` value into query items, for a request's `query` or a `.form` body:
///
/// ```swift
/// struct Search: Encodable { let term: String; let tags: [String]; let page: Int? }
/// let query = try URLFormEncoder().queryItems(from: Search(term: "swift", tags: ["a", "b"], page: nil))
/// // term=swift, tags[]=a, tags[]=b  (page is nil: left out)
/// let search = NetworkRequest<[Repo]>(path: "/search", query: query)
/// ```
///
/// Rules, like Alamofire's `URLEncodedFormEncoder`:
/// - the value must be keyed (a struct, a class or a dictionary); anything else throws `EncodingError`;
/// - keys come out sorted, so a dictionary always gives the same items;
/// - nested values are named with brackets: `filter[owner]=apple`;
/// - arrays as ``ArrayEncoding`` says (`tags[]=a` by default); `nil` leaves the key out;
/// - booleans as ``BoolEncoding`` says (`true`/`false` by default), dates as ``DateEncoding`` says (ISO 8601 by
///   default), numbers and strings as written. Escaping happens when the items are sent.
public struct URLFormEncoder: Sendable {
    /// How an array's elements are named.
    public enum ArrayEncoding: Sendable, Hashable {
        /// `tags[]=a&tags[]=b`: Rails, PHP, Alamofire's default.
        case brackets
        /// `tags=a&tags=b`: repeated keys, as most other servers read arrays.
        case noBrackets
        /// `tags[0]=a&tags[1]=b`.
        case indexInBrackets
    }

    /// How a `Bool` is written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `true` / `false`.
        case literal
        /// `1` / `0`.
        case numeric
    }

    /// How a `Date` is written.
    public enum DateEncoding: Sendable, Hashable {
        /// ISO 8601 in UTC, such as `2026-11-23T21:11:00Z`.
        case iso8601
        /// Seconds since 1970, as a number.
        case secondsSince1970
        /// Milliseconds since 1970, as a whole number.
        case millisecondsSince1970
    }

    /// How arrays are named. Default: ``ArrayEncoding/brackets``.
    public var arrays: ArrayEncoding
    /// How booleans are written. Default: ``BoolEncoding/literal``.
    public var bools: BoolEncoding
    /// How dates are written. Default: ``DateEncoding/iso8601``.
    public var dates: DateEncoding

    /// Creates an encoder.
    ///
    /// - Parameters:
    ///   - arrays: How arrays are named.
    ///   - bools: How booleans are written.
    ///   - dates: How dates are written.
    public init(arrays: ArrayEncoding = .brackets, bools: BoolEncoding = .literal, dates: DateEncoding = .iso8601) {
        self.arrays = arrays
        self.bools = bools
        self.dates = dates
    }

    /// The query items of `value`.
    ///
    /// - Parameter value: A keyed value: a struct, a class or a dictionary.
    /// - Returns: One item per leaf value, keys sorted.
    /// - Throws: `EncodingError.invalidValue` when `value` is not keyed, or what `value`'s own encoding throws.
    public func queryItems(from value: some Encodable) throws -> [URLQueryItem] {
        let root = FormNode()
        try value.encode(to: FormValueEncoder(node: root, options: self, codingPath: []))
        guard case .map = root.content else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [],
                    debugDescription: "URLFormEncoder encodes a keyed value (a struct or a dictionary), not "
                        + "\(type(of: value))"))
        }
        var items: [URLQueryItem] = []
        flatten(root, name: "", into: &items)
        return items
    }

    private func flatten(_ node: FormNode, name: String, into items: inout [URLQueryItem]) {
        switch node.content {
        case .empty:
            return
        case .leaf(let text):
            items.append(URLQueryItem(name: name, value: text))
        case .list(let elements):
            for (index, element) in elements.enumerated() {
                let elementName =
                    switch arrays {
                    case .brackets: name + "[]"
                    case .noBrackets: name
                    case .indexInBrackets: name + "[\(index)]"
                    }
                flatten(element, name: elementName, into: &items)
            }
        case .map(let entries):
            for (key, child) in entries.sorted(by: { $0.key < $1.key }) {
                flatten(child, name: name.isEmpty ? key : "\(name)[\(key)]", into: &items)
            }
        }
    }

    /// The text of a leaf that is not a string or a number.
    package func text(of date: Date) -> String {
        switch dates {
        case .iso8601: date.formatted(.iso8601)
        case .secondsSince1970: "\(date.timeIntervalSince1970)"
        case .millisecondsSince1970: "\(Int64((date.timeIntervalSince1970 * 1000).rounded()))"
        }
    }

    /// The text of `value`.
    package func text(of value: Bool) -> String {
        switch bools {
        case .literal: value ? "true" : "false"
        case .numeric: value ? "1" : "0"
        }
    }
}
