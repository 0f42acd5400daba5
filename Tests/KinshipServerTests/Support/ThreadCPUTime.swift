import Glibc

/// Runs `body` and returns its result with the CPU time the calling thread spent in it. Unlike
/// the wall clock, it is not stretched when the other tests of a parallel run share the cores, so
/// a bound on it fails only when the work itself grows.
func measuringThreadCPU<Result>(_ body: () throws -> Result) rethrows -> (result: Result, cpu: Duration) {
    let before = threadCPUNow()
    let result = try body()
    return (result, threadCPUNow() - before)
}

private func threadCPUNow() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}
