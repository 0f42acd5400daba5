import Foundation
import KinshipServer
import Logging

/// The file `kinship serve --explain-queries` writes on stopping: each distinct statement served,
/// its plan, and `FULL SCAN` where a step reads a whole table.
enum QueryPlanReport {
    static func write(_ database: Database, to path: String, logger: Logger) async throws {
        let plans = try await database.recordedQueryPlans()
        var text = "# \(plans.count) statements; \(plans.filter { !$0.fullScans.isEmpty }.count) read a whole table\n"
        for plan in plans {
            text += "\n" + (plan.fullScans.isEmpty ? "" : "FULL SCAN of " + plan.fullScans.joined(separator: ", ") + ": ") + plan.sql + "\n"
            text += plan.steps.map { "    " + $0 + "\n" }.joined()
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        logger.info("Query plans written", metadata: ["path": "\(path)", "statements": "\(plans.count)"])
    }
}
