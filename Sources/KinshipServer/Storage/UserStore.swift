import Foundation
import SQLKit

/// Accounts: create, find by id or by what a person types at the login form, list.
public struct UserStore: Sendable {
    let database: Database
    let clock: any WallClock
    let passwords: PasswordHasher
    /// Bumped when a profile changes: cached token checks hold the person's record.
    let generation: GrantGeneration?

    /// Stores a new account; the password is kept only as a bcrypt hash.
    public func create(_ newUser: NewUser) async throws -> UserRecord {
        let user = try newUser.normalized()
        let passwordHash = try await passwords.hash(user.password)
        let now = clock.now
        let record = UserRecord(
            id: Secrets.numericID(),
            name: user.name,
            firstName: user.firstName,
            middleName: user.middleName,
            lastName: user.lastName,
            username: user.username,
            email: user.email,
            passwordHash: passwordHash,
            gender: user.gender,
            locale: user.locale,
            birthday: user.birthday,
            hometown: user.hometown,
            location: user.location,
            passwordChangedAt: now,
            createdAt: now,
            findableByEmail: 0
        )
        try await database.write { sql in
            try await sql.serialize(on: ["account email " + record.email] + (record.username.map { ["account username " + $0] } ?? []))
            if try await sql.raw("SELECT id FROM users WHERE email = \(bind: record.email)").first() != nil {
                throw AccountError.emailTaken(record.email)
            }
            if let username = record.username,
                try await sql.raw("SELECT id FROM users WHERE username = \(bind: username)").first() != nil
            {
                throw AccountError.usernameTaken(username)
            }
            try await sql.raw(
                """
                INSERT INTO users (id, name, first_name, middle_name, last_name, username, email, password_hash,
                    gender, locale, birthday, hometown, location, password_changed_at, created_at)
                VALUES (\(bind: record.id), \(bind: record.name), \(bind: record.firstName), \(bind: record.middleName),
                    \(bind: record.lastName), \(bind: record.username), \(bind: record.email), \(bind: record.passwordHash),
                    \(bind: record.gender), \(bind: record.locale), \(bind: record.birthday), \(bind: record.hometown),
                    \(bind: record.location), \(bind: record.passwordChangedAt), \(bind: record.createdAt))
                """
            ).run()
            try await PersonSearchTerms.insert([(record.id, record.name)], in: sql)
        }
        return record
    }

    /// The account with this id.
    public func find(id: String) async throws -> UserRecord? {
        try await database.read { sql in try await Self.find(id: id, in: sql) }
    }

    /// The account with this id, as the caller's transaction sees it.
    static func find(id: String, in sql: any SQLDatabase) async throws -> UserRecord? {
        try await sql.raw("SELECT * FROM users WHERE id = \(bind: id)").first(decoding: UserRecord.self)
    }

    /// The account a person means by what they typed at the login form: an email or a username.
    public func find(login: String) async throws -> UserRecord? {
        let login = login.trimmingCharacters(in: .whitespaces).lowercased()
        guard !login.isEmpty else { return nil }
        return try await database.read { sql in
            // Two lookups, one per unique index: SQLite may read the whole table for an OR of them.
            try await sql.raw(
                "SELECT * FROM users WHERE email = \(bind: login) UNION ALL SELECT * FROM users WHERE username = \(bind: login)"
            ).first(decoding: UserRecord.self)
        }
    }

    /// Every account, oldest first.
    public func list() async throws -> [UserRecord] {
        try await database.read { sql in
            try await sql.raw("SELECT * FROM users ORDER BY created_at, id").all(decoding: UserRecord.self)
        }
    }

    /// Whether a password is this account's.
    func verifyPassword(_ password: String, of user: UserRecord) async throws -> Bool {
        try await passwords.verify(password, against: user.passwordHash)
    }
}
