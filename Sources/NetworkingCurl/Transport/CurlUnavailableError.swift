import Foundation
/// libcurl could not be used: the library is missing, lacks a function the transport needs, is older than 7.68, is
/// too old for the configuration (a client identity needs 7.71; own authorities or `trustsSystemAuthorities: false`
/// need 7.77), or could not make its multi handle. Thrown when a `CurlTransport` is made, so a client forced onto
/// libcurl fails at construction, not at its first call.
public struct CurlUnavailableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The library that was looked for, such as `libcurl.so.4`.
    public let library: String
    /// Why it cannot be used, in the loader's or libcurl's words.
    public let reason: String

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - library: The library that was looked for.
    ///   - reason: Why it cannot be used.
    public init(library: String, reason: String) {
        self.library = library
        self.reason = reason
    }

    /// `the libcurl transport is unavailable (libcurl.so.4): reason`.
    public var description: String { "the libcurl transport is unavailable (\(library)): \(reason)" }
}

extension CurlUnavailableError: LocalizedError {
    /// The same text as `description`, so `localizedDescription` reads as well.
    public var errorDescription: String? { description }
}
