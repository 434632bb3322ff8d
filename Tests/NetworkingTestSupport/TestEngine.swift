import Foundation
import Networking

/// The HTTP engine under the run's transport, for the real-server expectations that are one engine's behaviour.
///
/// On Linux both transports run on libcurl: `CurlTransport` itself, and `URLSessionTransport` through
/// FoundationNetworking, which is libcurl underneath. The real-server suite was written and observed there, so some
/// expectations are libcurl's: a code read from libcurl's words (Tests/README.md, L8), a header size libcurl refuses,
/// how it frames a broken body. On a Mac, `URLSessionTransport` runs on Apple's URL loading system, which may report
/// such a fault with another code, or take what libcurl refuses. A test whose expectation is libcurl's says so with
/// ``onLibcurl(_:elseAtLeast:)``: the expectation exactly where libcurl runs, and on Apple's loader the weaker promise
/// every engine must keep (a typed failure, never a success with wrong data, never a POST sent twice). On Linux
/// every expectation holds exactly as written.
package enum TestEngine: String, Sendable {
    /// libcurl: `CurlTransport` anywhere, and `URLSessionTransport` where Foundation's networking is
    /// FoundationNetworking (Linux).
    case libcurl
    /// Apple's URL loading system: `URLSessionTransport` on Apple platforms.
    case appleLoader

    /// The engine of this run (`NETWORKING_TEST_TRANSPORT`, see ``TestTransport``). `NETWORKING_TEST_ENGINE=appleLoader`
    /// makes a run here check the weaker expectations too, against libcurl's outcomes, which must meet them.
    package static var current: TestEngine {
        if let forced = ProcessInfo.processInfo.environment["NETWORKING_TEST_ENGINE"].flatMap(TestEngine.init) {
            return forced
        }
        if TestTransport.current == .curl { return .libcurl }
        // FoundationNetworking is swift-corelibs-foundation's URLSession, built on libcurl; Apple's Foundation has
        // URLSession itself, on its own loader.
        #if canImport(FoundationNetworking)
            return .libcurl
        #else
            return .appleLoader
        #endif
    }

    /// Whether this run's engine is libcurl.
    package static var isLibcurl: Bool { current == .libcurl }

    /// `exactly` where the run's engine is libcurl, whose behaviour the test states; `atLeast` on Apple's loader.
    ///
    /// ```swift
    /// // The code is read from libcurl's message; Apple's loader must at least fail with a transport error.
    /// #expect(TestEngine.onLibcurl(error?.kind == .transport(code), elseAtLeast: Faults.transportCode(error) != nil))
    /// ```
    package static func onLibcurl(_ exactly: Bool, elseAtLeast atLeast: Bool) -> Bool {
        isLibcurl ? exactly : atLeast
    }

    /// The attempts a retrying call must have made when it failed with `error`: `onLibcurl` where libcurl runs; on
    /// Apple's loader, whose code may differ from libcurl's, what the retry behavior must do with the code it got:
    /// the `budget` when the failure is worth another attempt, one otherwise (or when there was no failure).
    package static func attempts(onLibcurl: Int, after error: NetworkError?, budget: Int) -> Int {
        if isLibcurl { return onLibcurl }
        guard let error else { return 1 }  // the call succeeded: one attempt
        return FailureClassification(error).isWorthAnotherAttempt ? budget : 1
    }
}

/// Runs `body` and returns its value or the `NetworkError` it threw, for a test where an engine may either refuse an
/// answer or take it (then the value is checked for being the right one); throws ``ExpectationFailure`` when `body`
/// throws anything else.
package func outcome<T>(
    fileID: String = #fileID, line: Int = #line, _ body: () async throws -> T
) async throws -> Result<T, NetworkError> {
    do {
        return .success(try await body())
    } catch let error as NetworkError {
        return .failure(error)
    } catch {
        throw ExpectationFailure(
            "expected a value or a NetworkError, got \(type(of: error)): \(error)", fileID: fileID, line: line)
    }
}

extension Result {
    /// The value, when it is one.
    package var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error, when it is one.
    package var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
