import Foundation

#if os(macOS) || os(Linux)
    /// A program the tests start (the test servers, openssl, nginx): Foundation's `Process`, on the platforms that
    /// have it.
    package typealias ChildProcess = Process
#else
    /// iOS, tvOS and watchOS cannot start programs (Foundation has no `Process` there). The test targets still build
    /// for them; what needs a server of its own fails at once, saying so, and the real-server suite is disabled
    /// there (`TestServers.canStartServers`).
    package final class ChildProcess: @unchecked Sendable {
        package var executableURL: URL?
        package var arguments: [String]?
        package var standardInput: Any?
        package var standardOutput: Any?
        package var standardError: Any?
        package var terminationHandler: (@Sendable (ChildProcess) -> Void)?
        package var isRunning: Bool { false }
        package var terminationStatus: Int32 { -1 }

        package init() {}

        package func run() throws {
            throw ChildProcessUnavailable()
        }

        package func waitUntilExit() {}
        package func terminate() {}
    }

    /// Why a program could not be started here.
    package struct ChildProcessUnavailable: Error, CustomStringConvertible {
        package var description: String {
            "this platform cannot start programs (no Process): the test servers run on macOS and Linux"
        }
    }
#endif
