import Dispatch
import NetworkingHTTP

extension DispatchTime {
    /// The time `duration` from now, for dispatch timers. Computed in `UInt64` and saturating: a 32-bit `Int`
    /// (watchOS on arm64_32) cannot hold the nanoseconds of more than about 2.1 seconds.
    package static func now(plus duration: Duration) -> DispatchTime {
        let parts = duration.clampedForTimers.components
        let nanoseconds = UInt64(parts.seconds) * 1_000_000_000 + UInt64(parts.attoseconds / 1_000_000_000)
        let (sum, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(nanoseconds)
        return DispatchTime(uptimeNanoseconds: overflow ? .max : sum)
    }
}
