extension HedgingSettings {
    /// Whether a failed attempt's error is the call's answer, so the other attempts are cancelled and no hedge is
    /// sent, rather than a sign that another attempt may do better (which is then sent at once).
    ///
    /// Final: a status that another attempt would get again (4xx other than 408 and 429), the call's deadline
    /// (`timedOut(.call)`), and errors of the request or of a behavior (`invalidRequest`, `encoding`, `decoding`,
    /// `behavior`), and a local disk failure (`fileSystem`). Worth another attempt: transport errors, `timedOut(.attempt)`, 5xx, 408, 429, and errors that
    /// are not a ``NetworkError``.
    ///
    /// - Parameter error: What an attempt threw (never `CancellationError`, which the behavior handles itself).
    /// - Returns: `true` when the error ends the call.
    public static func isFinal(_ error: any Error) -> Bool {
        guard let error = error as? NetworkError else { return false }
        switch error.kind {
        case .unacceptableStatus(let status): return status < 500 && status != 408 && status != 429
        case .timedOut(let scope): return scope == .call
        case .transport: return false
        case .invalidRequest, .encoding, .decoding, .behavior, .fileSystem: return true
        }
    }
}
