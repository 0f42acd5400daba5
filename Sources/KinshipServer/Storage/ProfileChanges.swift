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
                if renamed {
                    try await PersonSearchTerms.store(for: userID, name: changes.name, in: sql)
                    try await ChatRosterChanges.record(try await ChatRosterChanges.contacts(of: userID, sql), now: now, sql)
                }
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

    /// How many people a search looks at, at most, whatever the size of the platform.
    static let searchCandidates = 200

    /// People with a word of their name beginning with each word of `text` (any case, any accents:
    /// see ``PersonSearchTerms``), or whose username is `text`, or whose email is `text` when they
    /// allow being found by it; by name, at most `limit`.
    ///
    /// The longest word typed is an index range on the terms, read in term order up to
    /// ``searchCandidates`` people; the other words filter those. So a search costs the same on a
    /// platform of a thousand people as of a million, and a very common word finds the first
    /// people in term order until more is typed.
    func search(name text: String, limit: Int) async throws -> [UserRecord] {
        let typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !typed.isEmpty else { return [] }
        let login = typed.lowercased()
        let words = PersonSearchTerms.words(ofQuery: typed)
        return try await database.read { sql in
            var found = try await sql.raw(
                """
                SELECT * FROM users WHERE email = \(bind: login) AND findable_by_email = 1
                UNION SELECT * FROM users WHERE username = \(bind: login)
                """
            ).all(decoding: UserRecord.self)
            if let longest = words.max(by: { $0.count < $1.count }) {
                let ids = try await sql.raw(
                    """
                    SELECT user_id FROM person_search_terms
                    WHERE term >= \(bind: longest) AND term < \(bind: PersonSearchTerms.upperBound(of: longest))
                    ORDER BY term, user_id LIMIT \(bind: Self.searchCandidates)
                    """
                ).all(decodingColumn: "user_id", as: String.self)
                let candidates = Array(Set(ids).subtracting(found.map(\.id)))
                if !candidates.isEmpty {
                    found += try await sql.raw("SELECT * FROM users WHERE id IN (\(binds: candidates))").all(decoding: UserRecord.self)
                        .filter { person in
                            let terms = PersonSearchTerms.terms(ofName: person.name)
                            return words.allSatisfy { word in terms.contains { $0.hasPrefix(word) } }
                        }
                }
            }
            return Array(found.sorted { ($0.name, $0.id) < ($1.name, $1.id) }.prefix(limit))
        }
    }
}
