import KinshipCore
import SQLKit

/// A device login as stored: the device code only as its hash.
struct DeviceCodeRecord: Decodable, Sendable {
    enum Status: String, Decodable, Sendable {
        /// Waiting for the person to type the user code and answer.
        case pending
        /// The person said yes: the next poll gets the tokens.
        case approved
        /// The person said no.
        case denied
        /// The tokens were handed out; the device code is spent.
        case used
    }

    var deviceCodeHash: String
    var userCode: String
    var appId: String
    var requestedScope: String
    var createdAt: Int
    var expiresAt: Int
    var pollInterval: Int
    var lastPolledAt: Int?
    var status: Status
    var userId: String?
    var authorizationId: String?
    var authTime: Int?

    /// The scope the device asked for.
    var requested: [Permission] { Permission.list(fromScope: requestedScope) }
}

/// Device logins (RFC 8628): started by a device, answered by a person on `/device`, redeemed once.
///
/// Every change of state is one conditional `UPDATE … RETURNING`, so two processes (or a double
/// click) cannot both approve, both deny or both redeem a code.
struct DeviceCodeStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// A started device login: the device code (returned once; stored hashed) and the user code.
    struct Started: Sendable {
        let deviceCode: String
        let userCode: UserCode
    }

    /// What a poll found out about its timing.
    enum Pace {
        /// Polled no sooner than the interval.
        case fine
        /// Polled too soon: the interval is now `interval` seconds.
        case tooFast(interval: Int)
    }

    /// Starts a device login for `appID` asking for `scope`.
    func start(appID: String, scope: [Permission], lifetime: Int, interval: Int) async throws -> Started {
        let deviceCode = Secrets.generate(prefix: "kdc_")
        let now = clock.now
        return try await database.write { sql in
            try await sql.raw("DELETE FROM device_codes WHERE expires_at < \(bind: now - 24 * 60 * 60)").run()
            // A new user code colliding with a live one is a one in millions event; try another.
            for _ in 0..<8 {
                let userCode = UserCode.random()
                let inserted = try await sql.raw(
                    """
                    INSERT INTO device_codes (device_code_hash, user_code, app_id, requested_scope, created_at, expires_at, poll_interval,
                        status)
                    VALUES (\(bind: Secrets.hash(deviceCode)), \(bind: userCode.normalized), \(bind: appID),
                        \(bind: Permission.scope(of: scope)), \(bind: now), \(bind: now + lifetime), \(bind: interval), 'pending')
                    ON CONFLICT (user_code) DO NOTHING
                    RETURNING user_code
                    """
                ).first()
                if inserted != nil { return Started(deviceCode: deviceCode, userCode: userCode) }
            }
            throw DeviceCodeError.noFreeUserCode
        }
    }

    /// The login a device code names, in whatever state.
    func find(deviceCode: String) async throws -> DeviceCodeRecord? {
        try await database.read { sql in
            try await sql.raw("SELECT * FROM device_codes WHERE device_code_hash = \(bind: Secrets.hash(deviceCode))")
                .first(decoding: DeviceCodeRecord.self, with: .snakeCase)
        }
    }

    /// The pending, unexpired login a typed user code names.
    func findPending(userCode: UserCode) async throws -> DeviceCodeRecord? {
        let now = clock.now
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM device_codes WHERE user_code = \(bind: userCode.normalized) AND status = 'pending'
                    AND expires_at > \(bind: now)
                """
            ).first(decoding: DeviceCodeRecord.self, with: .snakeCase)
        }
    }

    /// Records a poll. Sooner than the interval after the last one is too fast: the interval grows
    /// by 5 seconds (RFC 8628 §3.5), for this poll and every later one.
    func poll(_ record: DeviceCodeRecord) async throws -> Pace {
        let now = clock.now
        let hash = record.deviceCodeHash
        return try await database.write { sql in
            if let interval = try await sql.raw(
                """
                UPDATE device_codes SET last_polled_at = \(bind: now), poll_interval = poll_interval + 5
                WHERE device_code_hash = \(bind: hash) AND last_polled_at IS NOT NULL AND last_polled_at + poll_interval > \(bind: now)
                RETURNING poll_interval
                """
            ).first(decodingColumn: "poll_interval", as: Int.self) {
                return .tooFast(interval: interval)
            }
            try await sql.raw("UPDATE device_codes SET last_polled_at = \(bind: now) WHERE device_code_hash = \(bind: hash)").run()
            return .fine
        }
    }

    /// The person said yes with `authorization`. `false` when the code was no longer pending.
    func approve(_ record: DeviceCodeRecord, authorization: Authorization, authTime: Int) async throws -> Bool {
        let now = clock.now
        return try await database.write { sql in
            try await sql.raw(
                """
                UPDATE device_codes SET status = 'approved', user_id = \(bind: authorization.userID),
                    authorization_id = \(bind: authorization.id), auth_time = \(bind: authTime)
                WHERE device_code_hash = \(bind: record.deviceCodeHash) AND status = 'pending' AND expires_at > \(bind: now)
                RETURNING device_code_hash
                """
            ).first() != nil
        }
    }

    /// The person said no. `false` when the code was no longer pending.
    func deny(_ record: DeviceCodeRecord) async throws -> Bool {
        try await database.write { sql in try await Self.move(record.deviceCodeHash, from: .pending, to: .denied, in: sql) }
    }

    /// Spends an approved code, in the caller's write transaction. `false` when another poll spent it first.
    static func spend(deviceCodeHash: String, in sql: any SQLDatabase) async throws -> Bool {
        try await move(deviceCodeHash, from: .approved, to: .used, in: sql)
    }

    /// Moves a code from `from` to `to`; `false` when it was no longer in `from`.
    private static func move(
        _ deviceCodeHash: String,
        from: DeviceCodeRecord.Status,
        to: DeviceCodeRecord.Status,
        in sql: any SQLDatabase
    ) async throws -> Bool {
        try await sql.raw(
            """
            UPDATE device_codes SET status = \(bind: to.rawValue)
            WHERE device_code_hash = \(bind: deviceCodeHash) AND status = \(bind: from.rawValue)
            RETURNING device_code_hash
            """
        ).first() != nil
    }
}

/// Why a device login could not start.
enum DeviceCodeError: Error, CustomStringConvertible {
    case noFreeUserCode

    var description: String { "No free user code was found after 8 tries; the device_codes table may be full of live codes." }
}
