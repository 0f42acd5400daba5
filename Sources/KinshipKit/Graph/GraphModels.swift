import KinshipCore

/// A person as the Graph API describes them; fields not asked for (or not permitted) are `nil`.
public struct GraphUser: Decodable, Sendable, Equatable {
    /// The person's app-independent user id.
    public var id: String
    /// The full name as the person writes it.
    public var name: String?
    /// The given name.
    public var firstName: String?
    /// The middle name, if the person gave one.
    public var middleName: String?
    /// The family name.
    public var lastName: String?
    /// The name friends call the person by, such as the given name alone.
    public var shortName: String?
    /// A template showing how the name parts are ordered, such as `{first} {last}`.
    public var nameFormat: String?
    /// The address of the person's profile page.
    public var link: String?
    /// The person's username.
    public var username: String?
    /// The gender the person chose to show.
    public var gender: String?
    /// The person's locale, such as `en_US`.
    public var locale: String?
    /// The email address; needs the `email` permission.
    public var email: String?
    /// `MM/DD/YYYY`.
    public var birthday: String?
    /// Where the person comes from; needs `user_hometown`.
    public var hometown: GraphPlace?
    /// The person's current city; needs `user_location`.
    public var location: GraphPlace?
    /// The profile picture.
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
    /// The place's name.
    public var name: String
}

/// `{"data": {url, width, height, is_silhouette}}`, the Graph shape of a picture.
public struct PictureData: Decodable, Sendable, Equatable {
    /// The picture.
    public var data: Picture
}

/// A profile picture: where it is and its size.
public struct Picture: Decodable, Sendable, Equatable {
    /// Where the picture can be downloaded.
    public var url: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
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
    /// Cursors and links to the neighbouring pages.
    public struct Paging: Decodable, Sendable, Equatable {
        /// The opaque cursors that mark the page's ends.
        public struct Cursors: Decodable, Sendable, Equatable {
            /// The cursor before the first item: pass it as `before` for the previous page.
            public var before: String?
            /// The cursor after the last item: pass it as `after` for the next page.
            public var after: String?
        }

        /// The page's cursors.
        public var cursors: Cursors?
        /// The URL of the next page; `nil` on the last page.
        public var next: String?
        /// The URL of the previous page; `nil` on the first page.
        public var previous: String?
    }

    /// Counts asked for with `summary=total_count`.
    public struct Summary: Decodable, Sendable, Equatable {
        /// All of the person's friends, including those not listed (not using the app).
        public var totalCount: Int

        enum CodingKeys: String, CodingKey {
            case totalCount = "total_count"
        }
    }

    /// The friends on this page.
    public var data: [GraphFriend]
    /// Where the neighbouring pages are.
    public var paging: Paging?
    /// The total count, when it was asked for.
    public var summary: Summary?

    /// The cursor of the next page, when there is one.
    public var nextCursor: String? { paging?.next == nil ? nil : paging?.cursors?.after }
}

/// Whether one permission is granted, as `/me/permissions` lists it.
public struct PermissionStatus: Decodable, Sendable, Equatable {
    /// A permission's state for this app.
    public enum Status: String, Decodable, Sendable {
        /// The person granted it; calls that need it work.
        case granted
        /// The person declined it in the dialog, or revoked it later.
        case declined
        /// It was granted once but has lapsed; a new login must ask again.
        case expired
    }

    /// The permission.
    public var permission: Permission
    /// Whether it is granted, declined or expired.
    public var status: Status

    /// The state of `permission`.
    public init(permission: Permission, status: Status) {
        self.permission = permission
        self.status = status
    }
}
