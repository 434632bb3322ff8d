import NetworkingHTTP

/// A key of ``RequestMetadata``: a type names the entry and fixes the type of its value.
///
/// ```swift
/// enum FeatureFlag: RequestMetadataKey { typealias Value = String }
/// var request = NetworkRequest<Data>(path: "/checkout")
/// request.metadata[FeatureFlag.self] = "new-checkout"
/// // in a behavior: context.metadata[FeatureFlag.self]
/// ```
public protocol RequestMetadataKey {
    /// The type of the entry's value.
    associatedtype Value: Sendable
}

/// Values a caller sets on a ``NetworkRequest`` for behaviors to read from ``RequestContext/metadata``: which
/// endpoint a call is for (``EndpointName``, as openapi's `operationID` or Moya's `TargetType`), a feature flag,
/// a priority. Keys are types, so two modules cannot collide on a string and every value keeps its type.
public struct RequestMetadata: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// Creates empty metadata.
    public init() {}

    /// The value stored under `key`, or `nil`.
    ///
    /// - Parameter key: The key type.
    public subscript<Key: RequestMetadataKey>(_ key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether no value is set.
    public var isEmpty: Bool { values.isEmpty }
}

/// The built-in metadata key: a name for the endpoint a call is for, such as `getUser`. The logging behavior
/// prints it after the call's id; set it with ``NetworkRequest/endpointName``.
public enum EndpointName: RequestMetadataKey {
    /// The name.
    public typealias Value = String
}
