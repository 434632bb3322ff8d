import Foundation
import NetworkingCore
import NetworkingHTTP

/// One value of the tree a ``URLFormEncoder`` builds: containers write into it, then it is flattened into items.
/// A reference, as the `Encoder` protocol's containers require; it never leaves one synchronous encoding.
package final class FormNode {
    package enum Content {
        case empty
        case leaf(String)
        case list([FormNode])
        case map([String: FormNode])
    }

    package var content = Content.empty
}

/// The `Encoder` behind ``URLFormEncoder``.
package struct FormValueEncoder: Encoder {
    package let node: FormNode
    package let options: URLFormEncoder
    package let codingPath: [any CodingKey]
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .map = node.content {} else { node.content = .map([:]) }
        return KeyedEncodingContainer(FormKeyedContainer<Key>(node: node, options: options, codingPath: codingPath))
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .list = node.content {} else { node.content = .list([]) }
        return FormUnkeyedContainer(node: node, options: options, codingPath: codingPath)
    }

    package func singleValueContainer() -> any SingleValueEncodingContainer {
        FormSingleValueContainer(node: node, options: options, codingPath: codingPath)
    }

    /// Writes `value` into `node`: dates and booleans by the options, URLs and decimals as text, anything else by its
    /// own encoding.
    package static func write(
        _ value: some Encodable, into node: FormNode, options: URLFormEncoder, path: [any CodingKey]
    )
        throws
    {
        if let date = value as? Date {
            node.content = .leaf(options.text(of: date))
        } else if let flag = value as? Bool {
            node.content = .leaf(options.text(of: flag))
        } else if let url = value as? URL {
            node.content = .leaf(url.absoluteString)
        } else if let decimal = value as? Decimal {
            // A number as written, not its Codable structure (exponent, mantissa, ...).
            node.content = .leaf("\(decimal)")
        } else {
            try value.encode(to: FormValueEncoder(node: node, options: options, codingPath: path))
        }
    }
}

/// A position in an array, as a coding key.
package struct FormIndexKey: CodingKey {
    package let intValue: Int?
    package var stringValue: String { "\(intValue ?? 0)" }
    package init(_ index: Int) { intValue = index }
    package init?(stringValue: String) { nil }
    package init?(intValue: Int) { self.intValue = intValue }
}

package struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    package let node: FormNode
    package let options: URLFormEncoder
    package let codingPath: [any CodingKey]

    private func child(_ key: Key) -> FormNode {
        guard case .map(var entries) = node.content else { return FormNode() }
        let child = entries[key.stringValue] ?? FormNode()
        entries[key.stringValue] = child
        node.content = .map(entries)
        return child
    }

    package mutating func encodeNil(forKey key: Key) throws {}
    package mutating func encode(_ value: Bool, forKey key: Key) throws {
        child(key).content = .leaf(options.text(of: value))
    }
    package mutating func encode(_ value: String, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: Double, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: Float, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: Int, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: Int8, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: Int16, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: Int32, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: Int64, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt8, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt16, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt32, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt64, forKey key: Key) throws { child(key).content = .leaf("\(value)") }

    package mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try FormValueEncoder.write(value, into: child(key), options: options, path: codingPath + [key])
    }

    package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        FormValueEncoder(node: child(key), options: options, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    package mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FormValueEncoder(node: child(key), options: options, codingPath: codingPath + [key]).unkeyedContainer()
    }

    package mutating func superEncoder() -> any Encoder {
        FormValueEncoder(node: node, options: options, codingPath: codingPath)
    }

    package mutating func superEncoder(forKey key: Key) -> any Encoder {
        FormValueEncoder(node: child(key), options: options, codingPath: codingPath + [key])
    }
}

package struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    package let node: FormNode
    package let options: URLFormEncoder
    package let codingPath: [any CodingKey]
    package var count: Int {
        guard case .list(let elements) = node.content else { return 0 }
        return elements.count
    }

    private func append() -> FormNode {
        guard case .list(var elements) = node.content else { return FormNode() }
        let element = FormNode()
        elements.append(element)
        node.content = .list(elements)
        return element
    }

    package mutating func encodeNil() throws {}
    package mutating func encode(_ value: Bool) throws { append().content = .leaf(options.text(of: value)) }
    package mutating func encode(_ value: String) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: Double) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: Float) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: Int) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: Int8) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: Int16) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: Int32) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: Int64) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt8) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt16) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt32) throws { append().content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt64) throws { append().content = .leaf("\(value)") }

    package mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [FormIndexKey(count)]
        try FormValueEncoder.write(value, into: append(), options: options, path: path)
    }

    package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = codingPath + [FormIndexKey(count)]
        return FormValueEncoder(node: append(), options: options, codingPath: path).container(keyedBy: keyType)
    }

    package mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [FormIndexKey(count)]
        return FormValueEncoder(node: append(), options: options, codingPath: path).unkeyedContainer()
    }

    package mutating func superEncoder() -> any Encoder {
        let path = codingPath + [FormIndexKey(count)]
        return FormValueEncoder(node: append(), options: options, codingPath: path)
    }
}

package struct FormSingleValueContainer: SingleValueEncodingContainer {
    package let node: FormNode
    package let options: URLFormEncoder
    package let codingPath: [any CodingKey]

    package mutating func encodeNil() throws { node.content = .empty }
    package mutating func encode(_ value: Bool) throws { node.content = .leaf(options.text(of: value)) }
    package mutating func encode(_ value: String) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: Double) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: Float) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: Int) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: Int8) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: Int16) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: Int32) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: Int64) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt8) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt16) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt32) throws { node.content = .leaf("\(value)") }
    package mutating func encode(_ value: UInt64) throws { node.content = .leaf("\(value)") }

    package mutating func encode<T: Encodable>(_ value: T) throws {
        try FormValueEncoder.write(value, into: node, options: options, path: codingPath)
    }
}
