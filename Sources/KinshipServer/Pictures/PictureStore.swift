import Foundation
import SQLKit

/// Uploaded pictures, one per person, kept in the database so every server process serves them.
public struct PictureStore: Sendable {
    /// What is known of a stored picture without reading its bytes.
    struct Metadata: Decodable, Sendable {
        var contentType: String
        var width: Int
        var height: Int
        var updatedAt: Int
    }

    let database: Database
    let clock: any WallClock

    /// Checks and stores a person's picture, replacing the one before.
    public func save(userID: String, imageData: Data) async throws {
        let image = try UploadedImage(imageData)
        let now = clock.now
        try await database.write { sql in
            guard try await sql.raw("SELECT id FROM users WHERE id = \(bind: userID)").first() != nil else {
                throw AccountError.unknownUser(userID)
            }
            try await sql.raw(
                """
                INSERT INTO pictures (user_id, content_type, width, height, data, updated_at)
                VALUES (\(bind: userID), \(bind: image.contentType), \(bind: image.width), \(bind: image.height), \(bind: image.data), \(bind: now))
                ON CONFLICT (user_id) DO UPDATE SET content_type = excluded.content_type, width = excluded.width,
                    height = excluded.height, data = excluded.data, updated_at = excluded.updated_at
                """
            ).run()
        }
    }

    func metadata(userID: String) async throws -> Metadata? {
        try await database.read { sql in
            try await sql.raw("SELECT content_type, width, height, updated_at FROM pictures WHERE user_id = \(bind: userID)")
                .first(decoding: Metadata.self, with: .snakeCase)
        }
    }

    func image(userID: String) async throws -> (contentType: String, data: Data)? {
        try await database.read { sql in
            guard let row = try await sql.raw("SELECT content_type, data FROM pictures WHERE user_id = \(bind: userID)").first()
            else { return nil }
            return (try row.decode(column: "content_type", as: String.self), try row.decode(column: "data", as: Data.self))
        }
    }
}
