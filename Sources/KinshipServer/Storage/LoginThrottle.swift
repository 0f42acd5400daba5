import SQLKit

/// Limits password attempts per account and per address in a sliding window, in the database, so
/// the limit holds across every server process.
///
/// An attempt is counted when it is admitted, before its password is checked: admitting reads the
/// attempts in the window and records the new one in one serialized transaction, so however many
/// attempts arrive at once, at most the limit's worth are ever checked. An attempt whose password
/// was right is taken back; one that failed stays counted until it leaves the window.
struct LoginThrottle: Sendable {
    /// An admitted attempt: the rows that count it against its account and its address.
    struct Reservation: Sendable {
        let account: String
        fileprivate let ids: [String]
    }

    /// Whether an attempt may go ahead.
    enum Admission: Sendable {
        case admitted(Reservation)
        /// Over a limit: the seconds until the oldest counted attempt leaves the window.
        case refused(retryAfter: Int)
    }

    let database: Database
    let clock: any WallClock
    let limits: ServerConfiguration.LoginLimits

    /// Admits an attempt for `account` from `address` and counts it, or refuses it.
    func admit(account: String, address: String) async throws -> Admission {
        let now = clock.now
        let since = now - limits.windowSeconds
        let subjects = [("account:" + account, limits.perAccount), ("address:" + address, limits.perAddress)]
        return try await database.write { sql in
            try await sql.serialize(on: subjects.map { "login attempts " + $0.0 })
            for (subject, limit) in subjects {
                let times = try await sql.raw(
                    """
                    SELECT started_at FROM login_attempts WHERE subject = \(bind: subject) AND started_at > \(bind: since)
                    ORDER BY started_at DESC LIMIT \(literal: limit)
                    """
                ).all(decodingColumn: "started_at", as: Int.self)
                if times.count >= limit, let oldest = times.last {
                    return .refused(retryAfter: max(1, oldest + limits.windowSeconds - now))
                }
            }
            var ids: [String] = []
            for (subject, _) in subjects {
                let id = Secrets.generate(byteCount: 12)
                try await sql.raw(
                    "INSERT INTO login_attempts (id, subject, started_at, settled) VALUES (\(bind: id), \(bind: subject), \(bind: now), 0)"
                ).run()
                ids.append(id)
            }
            try await sql.raw("DELETE FROM login_attempts WHERE started_at <= \(bind: since)").run()
            return .admitted(Reservation(account: account, ids: ids))
        }
    }

    /// The password was wrong: the attempt stays counted.
    func recordFailure(_ reservation: Reservation) async throws {
        try await database.write { sql in
            try await sql.raw("UPDATE login_attempts SET settled = 1 WHERE id IN (\(binds: reservation.ids))").run()
        }
    }

    /// The password was right: the attempt no longer counts, nor do the account's earlier failures.
    /// Attempts still being checked keep counting.
    func recordSuccess(_ reservation: Reservation) async throws {
        try await database.write { sql in
            try await sql.raw("DELETE FROM login_attempts WHERE id IN (\(binds: reservation.ids))").run()
            try await sql.raw(
                "DELETE FROM login_attempts WHERE subject = \(bind: "account:" + reservation.account) AND settled = 1"
            ).run()
        }
    }
}
