import SQLKit

/// The log of whose friend list changed, which the chat server follows to keep its rosters equal
/// to Kinship's friend lists: every write that makes or ends a friendship or a request, renames a
/// person or deletes one records the people whose rosters it changed, in the same transaction.
///
/// Entries are numbered one transaction at a time (on PostgreSQL under an advisory lock held to
/// the commit), so a reader that has seen entry N has seen every entry before it, in every process.
/// Entries older than ``keptSeconds`` are dropped; a reader that fell further behind is told to
/// start over.
struct ChatRosterChanges: Sendable {
    let database: Database

    /// How long an entry is kept.
    static let keptSeconds = 3600
    /// The most entries one read returns.
    static let pageLimit = 1000

    /// What changed after a reader's cursor.
    struct Page: Sendable, Equatable {
        /// The cursor to read from next time.
        let cursor: Int
        /// The people whose rosters changed, each once.
        let userIDs: [String]
        /// The reader fell behind what is kept (or the log is not the one it read before): every
        /// roster it holds may be stale.
        let startOver: Bool
    }

    /// Records, inside a write transaction and as its last statement, that the rosters of
    /// `userIDs` changed.
    static func record(_ userIDs: [String], now: Int, _ sql: any SQLDatabase) async throws {
        let people = Array(Set(userIDs)).sorted()
        guard !people.isEmpty else { return }
        try await sql.serialize(on: ["chat roster changes"])
        let last = try await sql.raw("SELECT COALESCE(MAX(id), 0) AS id FROM chat_roster_changes").first(decodingColumn: "id", as: Int.self) ?? 0
        for (offset, userID) in people.enumerated() {
            try await sql.raw(
                "INSERT INTO chat_roster_changes (id, user_id, changed_at) VALUES (\(bind: last + offset + 1), \(bind: userID), \(bind: now))"
            ).run()
        }
        // The newest entry always stays, so numbering never starts again.
        try await sql.raw("DELETE FROM chat_roster_changes WHERE changed_at < \(bind: now - keptSeconds) AND id < \(bind: last)").run()
    }

    /// The people on whose rosters `userID` appears: friends, and the people a request is waiting
    /// for or from.
    static func contacts(of userID: String, _ sql: any SQLDatabase) async throws -> [String] {
        try await sql.raw(
            """
            SELECT friend_id AS id FROM friendships WHERE user_id = \(bind: userID)
            UNION SELECT to_user_id AS id FROM friend_requests WHERE from_user_id = \(bind: userID)
            UNION SELECT from_user_id AS id FROM friend_requests WHERE to_user_id = \(bind: userID)
            """
        ).all(decodingColumn: "id", as: String.self)
    }

    /// The people whose rosters changed after `cursor`: a cursor from an earlier page, 0 for
    /// everything kept, or -1 for none (just where the log is now).
    func changes(after cursor: Int) async throws -> Page {
        struct Bounds: Decodable {
            let first: Int?
            let last: Int?
        }
        struct Entry: Decodable {
            let id: Int
            let user_id: String
        }
        return try await database.read { sql in
            let bounds = try await sql.raw("SELECT MIN(id) AS first, MAX(id) AS last FROM chat_roster_changes").first(decoding: Bounds.self)
            let last = bounds?.last ?? 0
            if cursor < 0 { return Page(cursor: last, userIDs: [], startOver: false) }
            if cursor > last || (bounds?.first ?? 1) > cursor + 1 { return Page(cursor: last, userIDs: [], startOver: true) }
            let entries = try await sql.raw(
                "SELECT id, user_id FROM chat_roster_changes WHERE id > \(bind: cursor) ORDER BY id LIMIT \(bind: Self.pageLimit)"
            ).all(decoding: Entry.self)
            var seen = Set<String>()
            return Page(cursor: entries.last?.id ?? cursor, userIDs: entries.map(\.user_id).filter { seen.insert($0).inserted }, startOver: false)
        }
    }
}
