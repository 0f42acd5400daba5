import SQLKit

/// The durable outbox of app callbacks: a callback is written in the same transaction as the
/// change that causes it (so a person's request never waits for an app's server, and nothing is
/// lost when the process stops), then claimed and delivered by a ``CallbackDeliverer``.
///
/// A claim is a conditional update that only one process can win (a lease of `lease` seconds):
/// on PostgreSQL, several processes never deliver the same callback at the same time. A process
/// that dies mid-delivery leaves the lease to run out, and another delivers again — at least once.
public struct CallbackOutbox: Sendable {
    let database: Database
    let clock: any WallClock

    /// How long a callback is retried: a day, as the platform promises apps.
    public static let retryWindow = 86_400
    /// The first retry waits this long; each next one twice as long, up to ``longestBackoff``.
    static let firstBackoff = 30
    static let longestBackoff = 3_600

    /// Writes a callback of `kind` about `userID` to the app, inside the caller's transaction,
    /// when the app registered that callback. Returns whether one was written.
    @discardableResult
    static func enqueue(_ kind: CallbackKind, appID: String, userID: String, now: Int, _ sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw(
            """
            INSERT INTO callback_deliveries (id, app_id, user_id, kind, url, created_at, give_up_at, next_attempt_at)
            SELECT \(bind: Secrets.generate(byteCount: 12)), id, \(bind: userID), \(bind: kind.rawValue), \(unsafeRaw: kind.urlColumn),
                \(bind: now), \(bind: now + retryWindow), \(bind: now)
            FROM apps WHERE id = \(bind: appID) AND \(unsafeRaw: kind.urlColumn) IS NOT NULL AND sealed_signing_secret IS NOT NULL
            RETURNING id
            """
        ).first() != nil
    }

    /// Sends the data deletion callback of every app the person has used (logins revoked or
    /// not) that registered one; returns how many were written. Account deletion calls this.
    public func requestDataDeletion(userID: String) async throws -> Int {
        let now = clock.now
        return try await database.write { sql in try await Self.enqueueDataDeletion(userID: userID, now: now, sql) }
    }

    /// Writes the data deletion callback of every app the person has used, inside the caller's
    /// transaction (the one that deletes the account); returns how many were written.
    static func enqueueDataDeletion(userID: String, now: Int, _ sql: any SQLDatabase) async throws -> Int {
        var written = 0
        for appID in try await sql.raw(
            "SELECT DISTINCT app_id FROM authorizations WHERE user_id = \(bind: userID) ORDER BY app_id"
        ).all(decodingColumn: "app_id", as: String.self)
        where try await enqueue(.dataDeletion, appID: appID, userID: userID, now: now, sql) {
            written += 1
        }
        return written
    }

    /// Claims up to `limit` callbacks that are due, for `worker`, for `lease` seconds; each claim
    /// counts as an attempt.
    ///
    /// An idle outbox costs a read: the writer (SQLite's one connection for writes) is only taken
    /// when something is due.
    func claim(worker: String, limit: Int, lease: Int) async throws -> [CallbackDelivery] {
        let now = clock.now
        guard try await hasDue(now: now) else { return [] }
        return try await database.write { sql in
            try await sql.raw(
                """
                UPDATE callback_deliveries SET claimed_by = \(bind: worker), claimed_until = \(bind: now + lease), attempts = attempts + 1
                WHERE id IN (
                    SELECT id FROM callback_deliveries
                    WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= \(bind: now)
                        AND (claimed_until IS NULL OR claimed_until <= \(bind: now))
                    ORDER BY next_attempt_at LIMIT \(bind: limit))
                AND delivered_at IS NULL AND failed_at IS NULL AND (claimed_until IS NULL OR claimed_until <= \(bind: now))
                RETURNING *
                """
            ).all(decoding: CallbackDelivery.self, with: .snakeCase)
        }
    }

    /// Whether any callback waits for an attempt at `now` (claimed ones included: a lease that ran
    /// out makes its callback due again).
    private func hasDue(now: Int) async throws -> Bool {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT 1 AS due FROM callback_deliveries
                WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= \(bind: now)
                    AND (claimed_until IS NULL OR claimed_until <= \(bind: now))
                LIMIT 1
                """
            ).first() != nil
        }
    }

    /// How many callbacks wait for delivery, due now or later (given-up ones not counted).
    func waitingCount() async throws -> Int {
        try await database.read { sql in
            try await sql.raw("SELECT COUNT(*) AS waiting FROM callback_deliveries WHERE delivered_at IS NULL AND failed_at IS NULL")
                .first(decodingColumn: "waiting", as: Int.self) ?? 0
        }
    }

    /// Records that the app's server took the callback (a 2xx answer).
    func recordDelivered(
        _ delivery: CallbackDelivery,
        worker: String,
        status: Int,
        note: String?,
        statusURL: String?,
        confirmationCode: String?
    ) async throws {
        let now = clock.now
        try await database.write { sql in
            try await sql.raw(
                """
                UPDATE callback_deliveries SET delivered_at = \(bind: now), last_status = \(bind: status), last_error = \(bind: note),
                    status_url = \(bind: statusURL), confirmation_code = \(bind: confirmationCode), claimed_by = NULL, claimed_until = NULL
                WHERE id = \(bind: delivery.id) AND claimed_by = \(bind: worker)
                """
            ).run()
        }
    }

    /// Records a failed attempt: the next one waits twice as long as the last (30 s, 1 min, …,
    /// at most an hour); past the retry window the callback is given up.
    func recordFailure(_ delivery: CallbackDelivery, worker: String, status: Int?, error: String) async throws -> CallbackDelivery.Status {
        let now = clock.now
        let next = now + Self.backoff(afterAttempt: delivery.attempts)
        let givesUp = next > delivery.giveUpAt
        try await database.write { sql in
            try await sql.raw(
                """
                UPDATE callback_deliveries SET last_status = \(bind: status), last_error = \(bind: error),
                    next_attempt_at = \(bind: next), failed_at = \(bind: givesUp ? now : nil), claimed_by = NULL, claimed_until = NULL
                WHERE id = \(bind: delivery.id) AND claimed_by = \(bind: worker)
                """
            ).run()
        }
        return givesUp ? .failed : .pending
    }

    /// Seconds to wait after the `attempt`-th attempt failed.
    static func backoff(afterAttempt attempt: Int) -> Int {
        min(firstBackoff << min(max(attempt - 1, 0), 20), longestBackoff)
    }

    /// The most recent callbacks, of one app or of all, newest first.
    public func recent(appID: String? = nil, limit: Int = 50) async throws -> [CallbackDelivery] {
        try await database.read { sql in
            if let appID {
                return try await sql.raw(
                    "SELECT * FROM callback_deliveries WHERE app_id = \(bind: appID) ORDER BY created_at DESC, id LIMIT \(bind: limit)"
                ).all(decoding: CallbackDelivery.self, with: .snakeCase)
            }
            return try await sql.raw("SELECT * FROM callback_deliveries ORDER BY created_at DESC, id LIMIT \(bind: limit)")
                .all(decoding: CallbackDelivery.self, with: .snakeCase)
        }
    }
}
