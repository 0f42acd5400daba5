import Foundation

/// The size a picture is asked for: `type=square|small|normal|large`, or `width` / `height`.
struct PictureSize: Sendable, Equatable {
    /// The side of the square generated pictures are drawn at.
    let side: Int

    init(type: String?, width: String?, height: String?) throws(GraphError) {
        var requested: [Int] = []
        for text in [width, height] {
            guard let text else { continue }
            guard let value = Int(text), (1...4096).contains(value) else {
                throw .invalidParameter("width and height must be whole numbers from 1 to 4096")
            }
            requested.append(value)
        }
        if let largest = requested.max() {
            side = min(max(largest, 16), 1024)
            return
        }
        switch type ?? "small" {
        case "square", "small": side = 50
        case "normal": side = 100
        case "large": side = 200
        case let other: throw .invalidParameter("type must be square, small, normal or large, not \(other)")
        }
    }

    init(side: Int) { self.side = side }
}

/// Where a person's picture is and how big: `{"url", "width", "height", "is_silhouette"}`.
struct PictureInfo: Sendable, Equatable {
    let url: String
    let width: Int
    let height: Int
    let isSilhouette: Bool

    var json: JSONValue {
        .object([("url", .string(url)), ("width", .int(width)), ("height", .int(height)), ("is_silhouette", .bool(isSilhouette))])
    }
}

/// Pictures for the Graph API and the image URLs it hands out.
struct PictureService: Sendable {
    let store: PictureStore

    /// Where a person's picture is served, whatever it is (`GET /pictures/{user-id}`).
    static func address(of userID: String, baseURL: String) -> String { "\(baseURL)/pictures/\(userID)" }

    func info(for user: UserRecord, size: PictureSize, baseURL: String) async throws -> PictureInfo {
        let address = Self.address(of: user.id, baseURL: baseURL)
        if let stored = try await store.metadata(userID: user.id) {
            return PictureInfo(url: "\(address)?v=\(stored.updatedAt)", width: stored.width, height: stored.height, isSilhouette: false)
        }
        return PictureInfo(
            url: "\(address)?size=\(size.side)",
            width: size.side,
            height: size.side,
            isSilhouette: AvatarRenderer.initials(of: user) == nil
        )
    }

    /// The image bytes behind a picture URL: the uploaded picture, or one drawn for the person.
    func image(for user: UserRecord, side: Int) async throws -> (contentType: String, data: Data) {
        if let stored = try await store.image(userID: user.id) { return stored }
        return ("image/png", try AvatarRenderer.render(user, side: side))
    }
}
