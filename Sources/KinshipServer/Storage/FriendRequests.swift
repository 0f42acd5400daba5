import SQLKit

/// A request from one person to another to become friends; a friendship exists once it is accepted.
public struct FriendRequest: Sendable, Equatable {
    public let fromUserID: String
    public let toUserID: String
    /// Unix seconds.
    public let createdAt: Int
}

/// What sending a friend request did.
public enum FriendRequestOutcome: Sendable, Equatable {
    /// The request waits for the other person.
    case requested
    /// The same request was already waiting; nothing changed.
    case alreadyRequested
    /// The other person had asked first: the two are friends now.
    case becameFriends
    /// They were friends already.
    case alreadyFriends
}

/// Why a friend request could not be answered.
public enum FriendRequestError: Error, Equatable, CustomStringConvertible {
    case noSuchRequest(from: String, to: String)

    public var description: String {
        switch self {
        case .noSuchRequest(let from, let to): "There is no friend request from \(from) to \(to)."
        }
    }
}

extension FriendStore {
    /// Asks `toUserID` to become friends with `fromUserID`. A request the other way is accepted
    /// instead of adding a second one.
    public func sendRequest(from fromUserID: String, to toUserID: String) async throws -> FriendRequestOutcome {
        guard fromUserID != toUserID else { throw AccountError.invalid("A person cannot befriend themselves.") }
        let now = clock.now
        return try await database.write { sql in
            try await sql.serialize(on: ["friendship " + [fromUserID, toUserID].sorted().joined(separator: " ")])
            for id in [fromUserID, toUserID] where try await sql.raw("SELECT id FROM users WHERE id = \(bind: id)").first() == nil {
                throw AccountError.unknownUser(id)
            }
            if try await Self.areFriends(fromUserID, toUserID, sql) { return .alreadyFriends }
            if try await Self.requestExists(from: toUserID, to: fromUserID, sql) {
                try await Self.makeFriends(fromUserID, toUserID, at: now, sql)
                return .becameFriends
            }
            if try await Self.requestExists(from: fromUserID, to: toUserID, sql) { return .alreadyRequested }
            try await sql.raw(
                "INSERT INTO friend_requests (from_user_id, to_user_id, created_at) VALUES (\(bind: fromUserID), \(bind: toUserID), \(bind: now))"
            ).run()
            try await ChatRosterChanges.record([fromUserID, toUserID], now: now, sql)
            return .requested
        }
    }

    /// Accepts the request `fromUserID` sent `toUserID`: they become friends.
    public func accept(requestFrom fromUserID: String, to toUserID: String) async throws {
        let now = clock.now
        try await database.write { sql in
            try await sql.serialize(on: ["friendship " + [fromUserID, toUserID].sorted().joined(separator: " ")])
            guard try await Self.requestExists(from: fromUserID, to: toUserID, sql) else {
                throw FriendRequestError.noSuchRequest(from: fromUserID, to: toUserID)
            }
            try await Self.makeFriends(fromUserID, toUserID, at: now, sql)
        }
    }

    /// Declines a request (the recipient says no) or withdraws it (the sender changes their mind).
    public func dropRequest(from fromUserID: String, to toUserID: String) async throws {
        let now = clock.now
        let dropped = try await database.write { sql in
            guard
                try await sql.raw(
                    "DELETE FROM friend_requests WHERE from_user_id = \(bind: fromUserID) AND to_user_id = \(bind: toUserID) RETURNING created_at"
                ).first() != nil
            else { return false }
            try await ChatRosterChanges.record([fromUserID, toUserID], now: now, sql)
            return true
        }
        guard dropped else { throw FriendRequestError.noSuchRequest(from: fromUserID, to: toUserID) }
    }

    /// Ends a friendship, both ways. Ending one that does not exist changes nothing.
    public func unfriend(_ userID: String, _ friendID: String) async throws {
        let now = clock.now
        try await database.write { sql in
            let ended = try await sql.raw(
                """
                DELETE FROM friendships WHERE (user_id = \(bind: userID) AND friend_id = \(bind: friendID))
                    OR (user_id = \(bind: friendID) AND friend_id = \(bind: userID))
                RETURNING user_id
                """
            ).all()
            if !ended.isEmpty { try await ChatRosterChanges.record([userID, friendID], now: now, sql) }
        }
    }

    /// Requests waiting for `userID`'s answer, oldest first.
    public func incomingRequests(for userID: String) async throws -> [FriendRequest] {
        try await requests("to_user_id", userID)
    }

    /// Requests `userID` sent that are not answered yet, oldest first.
    public func outgoingRequests(of userID: String) async throws -> [FriendRequest] {
        try await requests("from_user_id", userID)
    }

    private func requests(_ column: String, _ userID: String) async throws -> [FriendRequest] {
        struct Row: Decodable {
            let from_user_id: String
            let to_user_id: String
            let created_at: Int
        }
        return try await database.read { sql in
            try await sql.raw(
                "SELECT from_user_id, to_user_id, created_at FROM friend_requests WHERE \(ident: column) = \(bind: userID) ORDER BY created_at, from_user_id, to_user_id"
            ).all(decoding: Row.self)
        }.map { FriendRequest(fromUserID: $0.from_user_id, toUserID: $0.to_user_id, createdAt: $0.created_at) }
    }

    static func areFriends(_ userID: String, _ otherID: String, _ sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("SELECT friend_id FROM friendships WHERE user_id = \(bind: userID) AND friend_id = \(bind: otherID)").first() != nil
    }

    private static func requestExists(from fromUserID: String, to toUserID: String, _ sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("SELECT created_at FROM friend_requests WHERE from_user_id = \(bind: fromUserID) AND to_user_id = \(bind: toUserID)")
            .first() != nil
    }

    /// Stores the friendship both ways and clears the requests between the two; as it records the
    /// change for the chat server, it is the last write of its transaction.
    static func makeFriends(_ userID: String, _ friendID: String, at now: Int, _ sql: any SQLDatabase) async throws {
        for (from, to) in [(userID, friendID), (friendID, userID)] {
            try await sql.raw(
                """
                INSERT INTO friendships (user_id, friend_id, created_at) VALUES (\(bind: from), \(bind: to), \(bind: now))
                ON CONFLICT (user_id, friend_id) DO NOTHING
                """
            ).run()
            try await sql.raw("DELETE FROM friend_requests WHERE from_user_id = \(bind: from) AND to_user_id = \(bind: to)").run()
        }
        try await ChatRosterChanges.record([userID, friendID], now: now, sql)
    }
}
