import Foundation

/// One value of the tree a ``URLFormEncoder`` builds: containers write into it, then it is flattened into items.
/// A reference, as the `Encoder` protocol's containers require; it never leaves one synchronous encoding.
final class FormNode {
    enum Content {
        case empty
        case leaf(String)
        case list([FormNode])
        case map([String: FormNode])
    }

    var content = Content.empty
}

/// The `Encoder` behind ``URLFormEncoder``.
struct FormValueEncoder: Encoder {
    let node: FormNode
    let options: URLFormEncoder
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .map = node.content {} else { node.content = .map([:]) }
        return KeyedEncodingContainer(FormKeyedContainer<Key>(node: node, options: options, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .list = node.content {} else { node.content = .list([]) }
        return FormUnkeyedContainer(node: node, options: options, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FormSingleValueContainer(node: node, options: options, codingPath: codingPath)
    }

    /// Writes `value` into `node`: dates and booleans by the options, anything else by its own encoding.
    static func write(_ value: some Encodable, into node: FormNode, options: URLFormEncoder, path: [any CodingKey])
        throws
    {
        if let date = value as? Date {
            node.content = .leaf(options.text(of: date))
        } else if let flag = value as? Bool {
            node.content = .leaf(options.text(of: flag))
        } else if let url = value as? URL {
            node.content = .leaf(url.absoluteString)
        } else {
            try value.encode(to: FormValueEncoder(node: node, options: options, codingPath: path))
        }
    }
}

/// A position in an array, as a coding key.
struct FormIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: FormNode
    let options: URLFormEncoder
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> FormNode {
        guard case .map(var entries) = node.content else { return FormNode() }
        let child = entries[key.stringValue] ?? FormNode()
        entries[key.stringValue] = child
        node.content = .map(entries)
        return child
    }

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws { child(key).content = .leaf(options.text(of: value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: Double, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: Float, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: Int, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: Int8, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: Int16, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: Int32, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: Int64, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: UInt, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { child(key).content = .leaf("\(value)") }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { child(key).content = .leaf("\(value)") }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try FormValueEncoder.write(value, into: child(key), options: options, path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        FormValueEncoder(node: child(key), options: options, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FormValueEncoder(node: child(key), options: options, codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        FormValueEncoder(node: node, options: options, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        FormValueEncoder(node: child(key), options: options, codingPath: codingPath + [key])
    }
}

struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let node: FormNode
    let options: URLFormEncoder
    let codingPath: [any CodingKey]
    var count: Int {
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

    mutating func encodeNil() throws {}
    mutating func encode(_ value: Bool) throws { append().content = .leaf(options.text(of: value)) }
    mutating func encode(_ value: String) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: Double) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: Float) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: Int) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: Int8) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: Int16) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: Int32) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: Int64) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: UInt) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: UInt8) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: UInt16) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: UInt32) throws { append().content = .leaf("\(value)") }
    mutating func encode(_ value: UInt64) throws { append().content = .leaf("\(value)") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [FormIndexKey(count)]
        try FormValueEncoder.write(value, into: append(), options: options, path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = codingPath + [FormIndexKey(count)]
        return FormValueEncoder(node: append(), options: options, codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [FormIndexKey(count)]
        return FormValueEncoder(node: append(), options: options, codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [FormIndexKey(count)]
        return FormValueEncoder(node: append(), options: options, codingPath: path)
    }
}

struct FormSingleValueContainer: SingleValueEncodingContainer {
    let node: FormNode
    let options: URLFormEncoder
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .empty }
    mutating func encode(_ value: Bool) throws { node.content = .leaf(options.text(of: value)) }
    mutating func encode(_ value: String) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: Double) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: Float) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: Int) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: Int8) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: Int16) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: Int32) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: Int64) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: UInt) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: UInt8) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: UInt16) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: UInt32) throws { node.content = .leaf("\(value)") }
    mutating func encode(_ value: UInt64) throws { node.content = .leaf("\(value)") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try FormValueEncoder.write(value, into: node, options: options, path: codingPath)
    }
}
