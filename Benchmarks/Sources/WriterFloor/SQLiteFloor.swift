import CSystemSQLite
import Foundation

/// A database file opened through SQLite's C API alone, as `kinship serve`'s writer opens it.
final class SQLiteFloor {
    /// A statement SQLite refused, with its message.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The login whose codes the exchanges spend.
    struct Login {
        let authorizationID: String
        let userID: String
        let appID: String
    }

    private var database: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw Failure(description: "cannot open \(path): " + String(cString: sqlite3_errmsg(database)))
        }
        for pragma in ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON"] {
            try execute(pragma)
        }
    }

    deinit { sqlite3_close_v2(database) }

    /// The app's first live login (the one the benchmark made).
    func login(of appID: String) throws -> Login {
        let statement = try prepare("SELECT id, user_id FROM authorizations WHERE app_id = ? AND revoked_at IS NULL LIMIT 1")
        defer { sqlite3_finalize(statement) }
        bind(statement, [appID])
        guard sqlite3_step(statement) == SQLITE_ROW else { throw Failure(description: "app \(appID) has no login in the database") }
        return Login(
            authorizationID: String(cString: sqlite3_column_text(statement, 0)),
            userID: String(cString: sqlite3_column_text(statement, 1)),
            appID: appID
        )
    }

    /// Runs `count` exchanges' writes for codes of `login` made beforehand; this process's CPU
    /// per exchange, in microseconds.
    func exchangeWrites(count: Int, login: Login) throws -> Double {
        let codes = (0..<count).map { _ in Self.randomHex(bytes: 32) }
        let insertCode = try prepare(
            """
            INSERT INTO authorization_codes (code_hash, authorization_id, app_id, user_id, redirect_uri, code_challenge, created_at,
                expires_at, nonce, requested_scope, auth_time)
            VALUES (?, ?, ?, ?, 'http://127.0.0.1/callback', 'challenge', 1, 9999999999, 'nonce', 'openid profile email', 1)
            """
        )
        defer { sqlite3_finalize(insertCode) }
        try execute("BEGIN")
        for code in codes { try run(insertCode, [code, login.authorizationID, login.appID, login.userID]) }
        try execute("COMMIT")
        try execute("PRAGMA wal_checkpoint(TRUNCATE)")

        let statements = try ExchangeStatements(self)
        let tokens = (0..<count).map { _ in ExchangeTokens() }
        let start = Self.processCPU()
        for (code, token) in zip(codes, tokens) {
            try run(statements.begin, [])
            try run(statements.findCode, [code])
            try run(statements.spendCode, [token.family, code])
            try run(statements.findAuthorization, [login.authorizationID])
            try run(statements.findPerson, [login.userID])
            try run(statements.insertAccessToken, [token.access, login.authorizationID, login.appID, login.userID, code, token.family])
            try run(statements.insertRefreshToken, [token.refresh, token.family, login.authorizationID, login.appID, login.userID])
            try run(statements.commit, [])
        }
        return (Self.processCPU() - start) / Double(count) * 1e6
    }

    /// What one exchange stores, made before the clock starts.
    private struct ExchangeTokens {
        let family = SQLiteFloor.randomHex(bytes: 16)
        let access = SQLiteFloor.randomHex(bytes: 32)
        let refresh = SQLiteFloor.randomHex(bytes: 32)
    }

    /// The statements of `RedemptionStore.redeemCode` for a public app's `openid` exchange, as the
    /// server writes them on SQLite (`SQLiteTokenTables`).
    private struct ExchangeStatements {
        let begin, findCode, spendCode, findAuthorization, findPerson, insertAccessToken, insertRefreshToken, commit: OpaquePointer

        init(_ floor: SQLiteFloor) throws {
            begin = try floor.prepare("BEGIN IMMEDIATE")
            findCode = try floor.prepare(
                """
                SELECT code_hash, authorization_id, app_id, user_id, redirect_uri, code_challenge, created_at, expires_at, used_at, nonce,
                    requested_scope, auth_time
                FROM authorization_codes WHERE code_hash = ?
                """
            )
            spendCode = try floor.prepare(
                "UPDATE authorization_codes SET used_at = 5, refresh_family_id = ? WHERE code_hash = ? AND used_at IS NULL RETURNING code_hash"
            )
            findAuthorization = try floor.prepare(
                """
                SELECT authorizations.id, authorizations.user_id, authorizations.app_id, authorizations.created_at,
                    authorizations.revoked_at, authorization_permissions.permission, authorization_permissions.status
                FROM authorizations
                LEFT JOIN authorization_permissions ON authorization_permissions.authorization_id = authorizations.id
                WHERE authorizations.id = ?
                """
            )
            findPerson = try floor.prepare(
                """
                SELECT id, name, first_name, middle_name, last_name, username, email, password_hash, gender, locale, birthday, hometown,
                    location, password_changed_at, created_at, findable_by_email, is_admin, suspended_at
                FROM users WHERE id = ?
                """
            )
            insertAccessToken = try floor.prepare(
                """
                INSERT INTO access_tokens (token_hash, authorization_id, app_id, user_id, lifetime, code_hash, issued_at, expires_at,
                    refresh_family_id)
                VALUES (?, ?, ?, ?, 'short', ?, 5, 7205, ?)
                """
            )
            insertRefreshToken = try floor.prepare(
                """
                INSERT INTO refresh_tokens (token_hash, family_id, authorization_id, app_id, user_id, requested_scope, auth_time,
                    issued_at, expires_at)
                VALUES (?, ?, ?, ?, ?, 'openid profile email', 1, 5, 7776005)
                """
            )
            commit = try floor.prepare("COMMIT")
        }
    }

    /// Runs a statement that is run once (a pragma, the set-up's transaction).
    private func execute(_ sql: String) throws {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: String(cString: sqlite3_errmsg(database)) + " in " + sql)
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: "cannot prepare \(sql): " + String(cString: sqlite3_errmsg(database)))
        }
        return statement
    }

    private func bind(_ statement: OpaquePointer, _ values: [String]) {
        for (index, value) in values.enumerated() {
            sqlite3_bind_text(statement, Int32(index + 1), value, -1, floor_sqlite_transient())
        }
    }

    /// Steps `statement` to its end, reading every column of every row as the server reads them
    /// (text as text, integers as integers), and resets it.
    private func run(_ statement: OpaquePointer, _ values: [String]) throws {
        bind(statement, values)
        defer { sqlite3_reset(statement) }
        var result = sqlite3_step(statement)
        while result == SQLITE_ROW {
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: _ = sqlite3_column_int64(statement, column)
                case SQLITE_NULL: break
                default: _ = sqlite3_column_text(statement, column)
                }
            }
            result = sqlite3_step(statement)
        }
        guard result == SQLITE_DONE else {
            throw Failure(description: String(cString: sqlite3_errmsg(database)) + " in " + String(cString: sqlite3_sql(statement)))
        }
    }

    fileprivate static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    private static func processCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
