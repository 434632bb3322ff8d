import Foundation
import Networking
import NetworkingCurl
import NetworkingTestSupport

/// `make soak`: a million calls through the full chain on `CurlTransport`, 64 callers, against a loopback server
/// (`Tests/Servers/soak_server.py`) that mixes in the faults a real backend has: connections reset, answers that
/// never come, 503 with `Retry-After`, bodies cut short, bodies that trickle in; and one call in a hundred cancelled
/// by its caller. Each call's fault is chosen by its number, so each has one expected outcome (or, when cancelled,
/// that or a cancellation); anything else is counted as unexpected and shown.
///
/// Ends with four targets: resident memory growth from the end of the warm-up (the first tenth of the calls) to the
/// end, open file descriptors once the client is gone minus before it was made, unexpected outcomes, and the
/// activity counter's count at the end.
struct SoakBenchmark {
    let calls: Int
    let callers = 64

    /// What the server is asked to do for call `index`, by its number out of each thousand.
    enum Fault: String, CaseIterable {
        case ok, slow, unavailable, reset, truncated, stall

        init(index: Int) {
            switch index % 1000 {
            case 0..<2: self = .stall  // 0.2 %: every attempt waits out its time limit
            case 2..<32: self = .reset  // 3 %
            case 32..<62: self = .truncated  // 3 %
            case 62..<112: self = .unavailable  // 5 %: 503 once, then the answer
            case 112..<142: self = .slow  // 3 %
            default: self = .ok
            }
        }

        /// What the call must end with: the answer, or the failure the fault makes after the retries.
        var expected: Outcome {
            switch self {
            case .ok, .slow, .unavailable: .answered
            case .reset, .truncated: .failed(.transport(.connectionLost))
            case .stall: .failed(.timedOut(.attempt))
            }
        }
    }

    /// How a call ended.
    enum Outcome: Hashable, CustomStringConvertible {
        case answered
        case cancelled
        case failed(NetworkError.Kind)
        case other(String)

        var description: String {
            switch self {
            case .answered: "answered"
            case .cancelled: "cancelled"
            case .failed(let kind): "failed \(kind)"
            case .other(let text): text
            }
        }
    }

    struct Payload: Decodable, Sendable {
        let i: Int
        let pad: String
    }

    struct Result {
        var counts: [String: Int] = [:]
        var unexpected = 0
        var examples: [String] = []
        var seconds = 0.0
        var rssAfterWarmUpKiB = 0
        var rssAtEndKiB = 0
        var descriptorsBefore = 0
        var descriptorsAfter = 0
        var newDescriptors: [String] = []
        var activityAtEnd = 0
        var serverConnections = 0
    }

    func run() async throws -> Result {
        let server = try SoakServer()
        defer { server.stop() }
        var result = Result()
        // The runtime's own descriptors first: libdispatch opens its timer descriptor (a timerfd on Linux) at the
        // first sleep of the process and keeps it; it is not the client's.
        try await Task.sleep(for: .milliseconds(1))
        let descriptors = Self.descriptorTargets()
        result.descriptorsBefore = descriptors.count - 1
        let store = InMemoryActivityCounterStore()
        let tally = LockedTally()
        do {
            let client = try Self.client(baseURL: server.baseURL, store: store)
            let start = ContinuousClock.now
            let warmUp = calls / 10
            let sampler = Task {
                // The resident size once the first tenth of the calls has ended.
                while tally.completed < warmUp { try await Task.sleep(for: .milliseconds(20)) }
                return Measure.residentKiB()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for caller in 0..<callers {
                    group.addTask {
                        for index in stride(from: caller, to: calls, by: callers) {
                            let outcome = await Self.call(index, client: client)
                            tally.record(index: index, outcome: outcome)
                        }
                    }
                }
                try await group.waitForAll()
            }
            result.seconds = (ContinuousClock.now - start).seconds
            result.rssAfterWarmUpKiB = try await sampler.value
            result.rssAtEndKiB = Measure.residentKiB()
            result.activityAtEnd = store.count
            result.serverConnections = (try? await server.connections(client: client)) ?? -1
        }
        // The client and its transport are gone: the loop thread closes its connections; give it a moment.
        for _ in 0..<100 where Self.openDescriptors() > result.descriptorsBefore {
            try await Task.sleep(for: .milliseconds(50))
        }
        result.descriptorsAfter = Self.openDescriptors()
        result.newDescriptors = Self.descriptorTargets().filter { descriptors[$0.key] != $0.value }
            .map { "\($0.key) \($0.value)" }.sorted()
        (result.counts, result.unexpected, result.examples) = tally.summary
        return result
    }

    private static func client(baseURL: URL, store: InMemoryActivityCounterStore) throws -> NetworkClient {
        let retry = RetrySettings(baseDelay: .milliseconds(5), maximumDelay: .milliseconds(50))
        let behavior = CombinedBehavior([
            .activityCounter(store: store),
            .logging(to: .discard),
            .metrics { _ in },
            .retry(retry),
            .authorization(.bearer, store: InMemoryTokenStore("soak-token")),
            .headers(["Accept": "application/json"]),
        ])
        var configuration = NetworkClient.Configuration(
            baseURL: baseURL, transport: try CurlTransport(), behavior: behavior)
        configuration.timeout = .seconds(1)
        return NetworkClient(configuration: configuration)
    }

    /// Sends call `index`; one in a hundred is cancelled by its caller a moment after it starts.
    private static func call(_ index: Int, client: NetworkClient) async -> (Outcome, Fault, Bool) {
        let fault = Fault(index: index)
        let request = NetworkRequest<Payload>(
            path: "/\(fault.rawValue)", query: [URLQueryItem(name: "i", value: String(index))])
        let send = { () async -> Outcome in
            do {
                let payload = try await client.send(request)
                return payload.i == index ? .answered : .other("answered with call \(payload.i)'s body")
            } catch is CancellationError {
                return .cancelled
            } catch let error as NetworkError {
                return .failed(error.kind)
            } catch {
                return .other("\(type(of: error)): \(error)")
            }
        }
        guard index % 100 == 99 else { return (await send(), fault, false) }
        let task = Task { await send() }
        try? await Task.sleep(for: .microseconds(index % 3_000))
        task.cancel()
        return (await task.value, fault, true)
    }

    /// Open file descriptors of this process (Linux: /proc/self/fd; elsewhere /dev/fd), the one listing it aside.
    static func openDescriptors() -> Int {
        descriptorTargets().count - 1
    }

    /// What each open descriptor is (`socket:[…]`, `anon_inode:[eventfd]`, a path), by number.
    static func descriptorTargets() -> [String: String] {
        #if os(Linux)
            let folder = "/proc/self/fd"
        #else
            let folder = "/dev/fd"
        #endif
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.map { name in
                (name, (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")) ?? "?")
            })
    }
}
