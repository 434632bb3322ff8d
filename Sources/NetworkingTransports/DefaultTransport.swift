import Foundation
import NetworkingCore
import NetworkingURLSession

#if os(Linux) || os(macOS)
    import NetworkingCurl
#endif

/// The transport a `NetworkClient` uses when it is given none, made once and shared for the process.
///
/// | Platform | Default |
/// |---|---|
/// | Linux | `CurlTransport` (libcurl, loaded at run time) when libcurl 7.68 or later loads; otherwise `URLSessionTransport`, with one line on standard error saying why |
/// | Apple platforms | `URLSessionTransport` (`CurlTransport` can be chosen on macOS, which ships libcurl; iOS, tvOS and watchOS have none, and their builds leave it out) |
///
/// To choose, pass a transport to the client (`try CurlTransport()` throws `CurlUnavailableError` where libcurl
/// cannot load, so the client is never built on a transport that cannot work), or use ``makeTransport(_:)``.
public enum DefaultTransport {
    /// The platform's default transport, made once and shared.
    public static var shared: any HTTPTransport { automatic.transport }

    /// Which transport ``shared`` is on this machine, and why (a fallback names what failed).
    public static var selection: String { automatic.reason }

    /// A new transport of the kind asked for.
    ///
    /// - Parameter preference: The kind; ``TransportPreference/automatic`` returns ``shared``.
    /// - Returns: The transport.
    /// - Throws: For ``TransportPreference/libcurl``: `CurlUnavailableError` where libcurl cannot be loaded, and on
    ///   iOS, tvOS and watchOS, which have no libcurl, a `TransportError` of code `other` saying so.
    public static func makeTransport(_ preference: TransportPreference) throws -> any HTTPTransport {
        switch preference {
        case .automatic: return shared
        case .libcurl:
            // NetworkingCurl is a dependency on Linux and macOS only (Package.swift, .when(platforms:)); iOS, tvOS and
            // watchOS have no system libcurl (Apple docs: none of their SDKs ships libcurl).
            #if os(Linux) || os(macOS)
                return try CurlTransport()
            #else
                throw TransportError(
                    .other,
                    "the libcurl transport is not part of this platform's build: iOS, tvOS"
                        + " and watchOS have no libcurl")
            #endif
        case .urlSession: return URLSessionTransport()
        }
    }

    private static let automatic: Choice = {
        // NetworkingCurl: Linux and macOS only, as above.
        #if os(Linux) || os(macOS)
            let choice = choose(
                prefersLibcurl: prefersLibcurl,
                makeCurl: { () throws(CurlUnavailableError) in
                    try CurlTransport()
                })
        #else
            let choice = Choice(
                transport: URLSessionTransport.shared, reason: "URLSessionTransport (platform default)", warning: nil)
        #endif
        if let warning = choice.warning { FileHandle.standardError.write(Data((warning + "\n").utf8)) }
        return choice
    }()

    /// Whether this platform's default is libcurl: Linux, where FoundationNetworking itself runs on libcurl.
    package static var prefersLibcurl: Bool {
        // Apple platforms: URLSession (developer.apple.com/documentation/foundation/urlsession) has none of the Linux
        // defects libcurl closes here (TransportsAndTrust.md), so it stays the default there.
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// The default transport, its reason, and the line to log when libcurl was wanted but could not load.
    package struct Choice: Sendable {
        package let transport: any HTTPTransport
        package let reason: String
        package let warning: String?
    }

    // NetworkingCurl: Linux and macOS only, as above.
    #if os(Linux) || os(macOS)
        /// Picks libcurl when preferred and `makeCurl` succeeds, URLSession otherwise.
        package static func choose(
            prefersLibcurl: Bool, makeCurl: () throws(CurlUnavailableError) -> CurlTransport
        ) -> Choice {
            guard prefersLibcurl else {
                return Choice(
                    transport: URLSessionTransport.shared, reason: "URLSessionTransport (platform default)",
                    warning: nil)
            }
            do throws(CurlUnavailableError) {
                let transport = try makeCurl()
                let version = CurlTransport.libraryVersion.map { " \($0)" } ?? ""
                return Choice(transport: transport, reason: "CurlTransport (libcurl\(version))", warning: nil)
            } catch {
                let reason = "URLSessionTransport (fallback: \(error))"
                return Choice(
                    transport: URLSessionTransport.shared, reason: reason,
                    warning: "Networking: \(error); using URLSessionTransport")
            }
        }
    #endif
}

extension DefaultTransport {
    /// A new transport of the kind asked for: ``makeTransport(_:)`` before 1.0.
    ///
    /// - Parameter preference: The kind.
    /// - Returns: The transport.
    /// - Throws: What ``makeTransport(_:)`` throws.
    @available(*, deprecated, renamed: "makeTransport(_:)")
    public static func transport(_ preference: TransportPreference) throws -> any HTTPTransport {
        try makeTransport(preference)
    }
}
