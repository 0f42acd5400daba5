import SQLKit

/// Counters for limits on actions that are not password checks (sign-ups per address, remote
/// token-cache requests per address), in fixed windows, in the database.
///
/// Counting is one `INSERT … ON CONFLICT DO UPDATE … RETURNING` statement, atomic on SQLite and
/// PostgreSQL alike: parallel requests, in one process or many, each get a different count, so no
/// more than the limit's worth are let through.
struct RateLimitStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// How long a finished window's count is kept; no window may be longer.
    static let retentionSeconds = 24 * 60 * 60

    /// Counts one hit for `subject` in the current window of `windowSeconds`; returns `nil` when the
    /// hit is within `limit`, or the seconds until the window ends when it is over.
    func hit(_ subject: String, limit: Int, windowSeconds: Int) async throws -> Int? {
        precondition((1...Self.retentionSeconds).contains(windowSeconds), "a rate window is 1 second to 1 day long")
        let now = clock.now
        let windowStart = now - now % windowSeconds
        let hits = try await database.write { sql in
            let hits =
                try await sql.raw(
                    """
                    INSERT INTO rate_counters (subject, window_start, hits) VALUES (\(bind: subject), \(bind: windowStart), 1)
                    ON CONFLICT (subject, window_start) DO UPDATE SET hits = rate_counters.hits + 1
                    RETURNING hits
                    """
                ).first(decodingColumn: "hits", as: Int.self) ?? 1
            if hits == 1 {
                try await sql.raw("DELETE FROM rate_counters WHERE window_start < \(bind: now - Self.retentionSeconds)").run()
            }
            return hits
        }
        return hits > limit ? max(1, windowStart + windowSeconds - now) : nil
    }
}
