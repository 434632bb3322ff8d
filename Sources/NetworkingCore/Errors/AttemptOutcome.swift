import NetworkingHTTP

/// What one attempt of a call got: the status the server answered, or the failure that ended the attempt without an
/// answer. ``NetworkError/attempts`` and the logging behavior's lines list them, so a retried call shows what each
/// try got: `after 3 attempts: 503, 503, 200`.
public enum AttemptOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The server answered with this status, acceptable or not.
    case status(Int)
    /// The attempt ended without an answer, with a ``NetworkError`` of this kind (a transport failure, a time limit,
    /// a request refused before any I/O).
    case failed(NetworkError.Kind)
    /// The attempt was cancelled: the call was, or another attempt of a hedged call answered first.
    case cancelled

    /// The outcome of an attempt that threw `error`.
    package init(of error: any Error) {
        // Written plainly: Swift 6.3.1's optimizer crashed (an ownership verifier failure in CopyPropagation) on a
        // `switch` binding the NetworkError and mapping its optional status.
        if error is CancellationError {
            self = .cancelled
        } else if let error = error as? NetworkError {
            if let code = error.response?.status.code { self = .status(code) } else { self = .failed(error.kind) }
        } else {
            self = .failed(.transport(.other))
        }
    }

    /// The status, such as `503`, or the failure's kind, such as `transport(cannotConnect)`, or `cancelled`.
    public var description: String {
        switch self {
        case .status(let code): "\(code)"
        case .failed(let kind): "\(kind)"
        case .cancelled: "cancelled"
        }
    }

    /// ` after 3 attempts: 503, 503, 200`, or nothing for one attempt or none.
    package static func summary(_ outcomes: [AttemptOutcome]) -> String {
        guard outcomes.count > 1 else { return "" }
        return " after \(outcomes.count) attempts: " + outcomes.map(\.description).joined(separator: ", ")
    }
}

/// What a call's attempts got, in the order they ended, and the request as sent for the last answer: one record per
/// call, kept by its ``Attempt``. The first outcome is held inline, so a call of one attempt allocates nothing here.
package struct AttemptRecord: Sendable {
    /// The request as sent for the last answer the call got.
    package var lastSent: HTTPRequest?
    private var first: AttemptOutcome?
    private var later: [AttemptOutcome] = []

    package init() {}

    /// Adds the outcome of an attempt that ended.
    package mutating func append(_ outcome: AttemptOutcome) {
        if first == nil { first = outcome } else { later.append(outcome) }
    }

    /// Every outcome, in the order the attempts ended.
    package var outcomes: [AttemptOutcome] {
        guard let first else { return [] }
        return [first] + later
    }
}
