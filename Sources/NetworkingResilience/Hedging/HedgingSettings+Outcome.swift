import NetworkingHTTP
import NetworkingCore
extension HedgingSettings {
    /// Whether a failed attempt's error is the call's answer, so the other attempts are cancelled and no hedge is
    /// sent, rather than a sign that another attempt may do better (which is then sent at once).
    ///
    /// Read from `FailureClassification` (the classifier every behavior shares): final unless
    /// `FailureClassification/isWorthAnotherAttempt` (transient failures and `timedOut(.attempt)`).
    ///
    /// - Parameter error: What an attempt threw (never `CancellationError`, which the behavior handles itself).
    /// - Returns: `true` when the error ends the call.
    public static func isFinal(_ error: any Error) -> Bool {
        !FailureClassification(error).isWorthAnotherAttempt
    }
}
