/// Times a piece of work several times and reports the median, so one slow run (a page fault, the
/// other core busy) does not decide the figure.
enum Stopwatch {
    static func median(runs: Int, _ work: () -> Void) -> Duration {
        var times: [Duration] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            work()
            times.append(ContinuousClock.now - start)
        }
        return times.sorted()[times.count / 2]
    }
}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
