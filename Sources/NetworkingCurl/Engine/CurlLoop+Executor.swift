import NetworkingCore

/// The loop thread as a task executor: a task that prefers it (`withTaskExecutorPreference`) runs between the
/// loop's rounds, so a caller, its transfer and its answer share one thread, and the answer needs no other thread
/// woken. Jobs arrive through the loop's command queue like any other work (a job from another thread wakes a
/// sleeping loop, as any command does). Jobs queued before the stop command still run here; one the stopped loop can
/// no longer run goes to the global executor, so no task is ever lost.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
extension CurlLoop: TaskExecutor {
    func enqueue(_ job: UnownedJob) {
        submit(.run(job))
    }

    /// Runs `job` on the loop thread, as its executor.
    func runJob(_ job: UnownedJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
    }

    /// Hands `job` to the global executor (the loop has stopped).
    static func runElsewhere(_ job: UnownedJob) {
        globalConcurrentExecutor.enqueue(job)
    }
}
