import KinshipCore

/// A person as the Graph API describes them; fields not asked for (or not permitted) are `nil`.
public struct GraphUser: Decodable, Sendable, Equatable {
    public var id: String
    public var name: String?
    public var firstName: String?
    public var middleName: String?
    public var lastName: String?
    public var shortName: String?
    public var nameFormat: String?
    public var link: String?
    public var username: String?
    public var gender: String?
    public var locale: String?
    public var email: String?
    /// `MM/DD/YYYY`.
    public var birthday: String?
    public var hometown: GraphPlace?
    public var location: GraphPlace?
    public var picture: PictureData?

    enum CodingKeys: String, CodingKey {
        case id, name, link, username, gender, locale, email, birthday, hometown, location, picture
        case firstName = "first_name"
        case middleName = "middle_name"
        case lastName = "last_name"
        case shortName = "short_name"
        case nameFormat = "name_format"
    }
}

/// A named place (hometown, current city).
public struct GraphPlace: Decodable, Sendable, Equatable {
    public var name: String
}

/// `{"data": {url, width, height, is_silhouette}}`, the Graph shape of a picture.
public struct PictureData: Decodable, Sendable, Equatable {
    public var data: Picture
}

/// A profile picture: where it is and its size.
public struct Picture: Decodable, Sendable, Equatable {
    public var url: String
    public var width: Int
    public var height: Int
    /// `true` when the person uploaded nothing and the platform drew a placeholder.
    public var isSilhouette: Bool

    enum CodingKeys: String, CodingKey {
        case url, width, height
        case isSilhouette = "is_silhouette"
    }
}

/// A friend in a friends page.
public typealias GraphFriend = GraphUser

extension GraphUser {
    /// The fields a friend list asks for by default.
    public static let defaultFields = ["id", "name", "first_name", "last_name", "picture"]
}

/// One page of `/me/friends`.
public struct FriendsPage: Decodable, Sendable, Equatable {
    public struct Paging: Decodable, Sendable, Equatable {
        public struct Cursors: Decodable, Sendable, Equatable {
            public var before: String?
            public var after: String?
        }

        public var cursors: Cursors?
        public var next: String?
        public var previous: String?
    }

    public struct Summary: Decodable, Sendable, Equatable {
        /// All of the person's friends, including those not listed (not using the app).
        public var totalCount: Int

        enum CodingKeys: String, CodingKey {
            case totalCount = "total_count"
        }
    }

    public var data: [GraphFriend]
    public var paging: Paging?
    public var summary: Summary?

    /// The cursor of the next page, when there is one.
    public var nextCursor: String? { paging?.next == nil ? nil : paging?.cursors?.after }
}

/// Whether one permission is granted, as `/me/permissions` lists it.
public struct PermissionStatus: Decodable, Sendable, Equatable {
    public enum Status: String, Decodable, Sendable {
        case granted, declined, expired
    }

    public var permission: Permission
    public var status: Status

    public init(permission: Permission, status: Status) {
        self.permission = permission
        self.status = status
    }
}
