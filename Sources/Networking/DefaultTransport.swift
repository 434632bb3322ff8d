import Foundation

/// The transport a `NetworkClient` uses when it is given none: the URL session transport, one shared for the
/// process.
public enum DefaultTransport {
    /// The platform's default transport, made once and shared.
    public static var shared: any HTTPTransport { URLSessionTransport.shared }
}
