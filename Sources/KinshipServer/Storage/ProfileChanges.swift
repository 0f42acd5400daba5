import Foundation
import SQLKit

/// What a person changes on their profile page. Empty fields clear optional values; when both the
/// first and the last name are left empty, they (and the middle name) are taken from the name.
struct ProfileChanges: Sendable, Equatable {
    var name: String
    var firstName: String?
    var lastName: String?
    /// Not on the form: derived from the name, or cleared when first and last name are given.
    var middleName: String?
    var birthday: String?
    var hometown: String?
    var location: String?
    /// Whether others may find the person by their exact email address.
    var findableByEmail: Bool

    init(
        name: String,
        firstName: String? = nil,
        lastName: String? = nil,
        birthday: String? = nil,
        hometown: String? = nil,
        location: String? = nil,
        findableByEmail: Bool = false
    ) {
        self.name = name
        self.firstName = firstName
        self.lastName = lastName
        self.birthday = birthday
        self.hometown = hometown
        self.location = location
        self.findableByEmail = findableByEmail
    }

    /// The account with the changes as typed, for showing a refused form again.
    func typed(over user: UserRecord) -> UserRecord {
        var user = user
        (user.name, user.firstName, user.lastName) = (name, firstName, lastName)
        (user.birthday, user.hometown, user.location) = (birthday, hometown, location)
        user.findableByEmail = findableByEmail ? 1 : 0
        return user
    }

    /// The changes as they will be stored: trimmed, empty as absent, checked by the sign-up rules.
    func normalized() throws(AccountError) -> ProfileChanges {
        func cleaned(_ value: String?) -> String? {
            let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return trimmed.isEmpty ? nil : trimmed
        }
        var changes = ProfileChanges(
            name: name.trimmingCharacters(in: .whitespacesAndNewlines),
            firstName: cleaned(firstName),
            lastName: cleaned(lastName),
            birthday: cleaned(birthday),
            hometown: cleaned(hometown),
            location: cleaned(location),
            findableByEmail: findableByEmail
        )
        try NewUser.checkProfile(
            name: changes.name,
            birthday: changes.birthday,
            gender: nil,
            hometown: changes.hometown,
            location: changes.location
        )
        for (label, part) in [("first name", changes.firstName), ("last name", changes.lastName)] {
            if let part, part.count > 100 { throw .invalid("The \(label) must be at most 100 characters.") }
        }
        changes.middleName = nil
        if changes.firstName == nil, changes.lastName == nil {
            (changes.firstName, changes.middleName, changes.lastName) = NewUser.nameParts(of: changes.name)
        }
        return changes
    }
}

extension UserStore {
    /// Applies a person's profile changes and returns the account as stored now. Cached token
    /// checks, which hold the person's record, are emptied in every process. A new name reaches
    /// the chat rosters the person is on.
    func update(_ userID: String, with changes: ProfileChanges) async throws -> UserRecord {
        let changes = try changes.normalized()
        let now = clock.now
        try await generation.changing {
            try await database.write { sql in
                let renamed =
                    try await sql.raw("SELECT name FROM users WHERE id = \(bind: userID)")
                    .first(decodingColumn: "name", as: String.self) != changes.name
                try await sql.raw(
                    """
                    UPDATE users SET name = \(bind: changes.name), first_name = \(bind: changes.firstName),
                        last_name = \(bind: changes.lastName), middle_name = \(bind: changes.middleName), birthday = \(bind: changes.birthday),
                        hometown = \(bind: changes.hometown), location = \(bind: changes.location),
                        findable_by_email = \(bind: changes.findableByEmail ? 1 : 0)
                    WHERE id = \(bind: userID)
                    """
                ).run()
                if renamed { try await ChatRosterChanges.record(try await ChatRosterChanges.contacts(of: userID, sql), now: now, sql) }
            }
        }
        guard let user = try await find(id: userID) else { throw AccountError.unknownUser(userID) }
        return user
    }

    /// The accounts with these ids that exist, sorted by name.
    func find(ids: [String]) async throws -> [UserRecord] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { sql in
            try await sql.raw("SELECT * FROM users WHERE id IN (\(binds: ids)) ORDER BY name, id").all(decoding: UserRecord.self)
        }
    }

    /// People whose name contains `text` (any case), or whose username is `text`, or whose email is
    /// `text` when they allow being found by it; by name, at most `limit`.
    func search(name text: String, limit: Int) async throws -> [UserRecord] {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !text.isEmpty else { return [] }
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM users WHERE lower(name) LIKE \(bind: "%" + escaped + "%") ESCAPE '\\'
                    OR (email = \(bind: text) AND findable_by_email = 1) OR username = \(bind: text)
                ORDER BY name, id LIMIT \(bind: limit)
                """
            ).all(decoding: UserRecord.self)
        }
    }
}
