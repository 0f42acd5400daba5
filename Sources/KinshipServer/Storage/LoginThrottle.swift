import SQLKit

/// Counts failed logins per account and per address in a sliding window, in the database, so the
/// limit holds across every server process.
struct LoginThrottle: Sendable {
    let database: Database
    let limits: ServerConfiguration.LoginLimits

    /// Whether either subject has used up its failures; when it has, the seconds until it may try again.
    func retryAfter(account: String, address: String) async throws -> Int? {
        let now = UnixTime.now()
        let since = now - limits.windowSeconds
        return try await database.withConnection { sql in
            for (subject, limit) in [("account:" + account, limits.perAccount), ("address:" + address, limits.perAddress)] {
                let times = try await sql.raw(
                    "SELECT failed_at FROM login_failures WHERE subject = \(bind: subject) AND failed_at > \(bind: since) ORDER BY failed_at DESC LIMIT \(literal: limit)"
                ).all(decodingColumn: "failed_at", as: Int.self)
                if times.count >= limit, let oldest = times.last {
                    return max(1, oldest + limits.windowSeconds - now)
                }
            }
            return nil
        }
    }

    /// Records a failed attempt against both subjects, and forgets failures older than the window.
    func recordFailure(account: String, address: String) async throws {
        let now = UnixTime.now()
        try await database.withConnection { sql in
            for subject in ["account:" + account, "address:" + address] {
                try await sql.raw(
                    "INSERT INTO login_failures (id, subject, failed_at) VALUES (\(bind: Secrets.generate(byteCount: 12)), \(bind: subject), \(bind: now))"
                ).run()
            }
            try await sql.raw("DELETE FROM login_failures WHERE failed_at <= \(bind: now - limits.windowSeconds)").run()
        }
    }

    /// Forgets an account's failures after it logs in successfully.
    func clear(account: String) async throws {
        try await database.withConnection { sql in
            try await sql.raw("DELETE FROM login_failures WHERE subject = \(bind: "account:" + account)").run()
        }
    }
}
