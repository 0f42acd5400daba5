import SQLKit

/// A post on a person's timeline, made by an app on their behalf.
struct PostRecord: Decodable, Sendable {
    var id: String
    var userId: String
    var appId: String
    var message: String
    var link: String?
    var createdAt: Int
    var sequence: Int
}

/// Timeline posts.
struct PostStore: Sendable {
    /// Why a post was refused.
    enum Refusal: Error {
        case duplicate
    }

    let database: Database
    let clock: any WallClock

    /// Posts a message; refuses the same message as the person's latest post.
    func publish(userID: String, appID: String, message: String, link: String?) async throws -> PostRecord {
        let now = clock.now
        return try await database.write { sql in
            try await sql.serialize(on: ["posts of " + userID])
            let latest = try await sql.raw(
                "SELECT * FROM posts WHERE user_id = \(bind: userID) ORDER BY sequence DESC LIMIT 1"
            ).first(decoding: PostRecord.self, with: .snakeCase)
            if latest?.message == message { throw Refusal.duplicate }
            let post = PostRecord(
                id: Secrets.numericID(),
                userId: userID,
                appId: appID,
                message: message,
                link: link,
                createdAt: now,
                sequence: (latest?.sequence ?? 0) + 1
            )
            try await sql.raw(
                """
                INSERT INTO posts (id, user_id, app_id, message, link, created_at, sequence)
                VALUES (\(bind: post.id), \(bind: post.userId), \(bind: post.appId), \(bind: post.message), \(bind: post.link),
                    \(bind: post.createdAt), \(bind: post.sequence))
                """
            ).run()
            return post
        }
    }

    /// A person's posts, newest first, older than `beforeSequence` when given.
    func timeline(of userID: String, beforeSequence: Int?, limit: Int) async throws -> [PostRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM posts WHERE user_id = \(bind: userID) AND sequence < \(bind: beforeSequence ?? Int.max)
                ORDER BY sequence DESC LIMIT \(literal: limit)
                """
            ).all(decoding: PostRecord.self, with: .snakeCase)
        }
    }
}
