@testable import KinshipServer

extension ServerMetrics {
    /// The value of one series as Prometheus would read it (`name{label="value",…}`), after
    /// collecting what is kept elsewhere; `nil` when the series does not exist.
    func reading(_ series: String, from platform: Platform) async -> Double? {
        await collect(from: platform)
        let text = String(decoding: exposition(), as: UTF8.self)
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), line[..<space] == series else { continue }
            return Double(line[line.index(after: space)...])
        }
        return nil
    }
}
