import Histogram

/// What a run measured: a latency histogram (microseconds) for each kind of request, and the failures.
actor Timings {
    private(set) var histograms: [String: Histogram<UInt64>] = [:]
    private(set) var failures: [String] = []

    func record(_ kind: String, _ duration: Duration) {
        let microseconds = UInt64(max(1, duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000))
        histograms[kind, default: Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)]
            .record(microseconds)
    }

    func fail(_ description: String) {
        failures.append(description)
    }
}

extension Histogram<UInt64> {
    /// A percentile in milliseconds.
    func milliseconds(at percentile: Double) -> Double {
        Double(valueAtPercentile(percentile)) / 1_000
    }
}
