import KinshipCore

/// The logged-in person's profile, with the fields their token allows.
public struct Profile: Sendable, Equatable {
    /// The person's user id.
    public var userID: String
    /// The full name (the user id when the platform gave no name).
    public var name: String
    /// The given name.
    public var firstName: String?
    /// The middle name, if the person gave one.
    public var middleName: String?
    /// The family name.
    public var lastName: String?
    /// The address of the person's profile page.
    public var link: String?
    /// The address of the profile picture.
    public var pictureURL: String?
    /// Present only when `email` is granted.
    public var email: String?
    /// `MM/DD/YYYY`; present only with `user_birthday`.
    public var birthday: String?
    /// Present only with `user_hometown`.
    public var hometown: String?
    /// Present only with `user_location`.
    public var location: String?

    /// The fields `token` lets an app read: the public ones, plus each gated field whose
    /// permission is granted. Asking only for these keeps the answer honest about what is shared.
    public static func fields(allowedBy token: AccessToken) -> [String] {
        var fields = ["id", "name", "first_name", "middle_name", "last_name", "link", "picture"]
        let gated: [(String, Permission)] = [
            ("email", .email), ("birthday", .userBirthday), ("hometown", .userHometown), ("location", .userLocation),
        ]
        for (field, permission) in gated where token.hasGranted(permission) { fields.append(field) }
        return fields
    }

    /// Loads the profile of whoever `graph` calls for.
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer.
    public static func loadCurrent(using graph: GraphClient) async throws(GraphError) -> Profile {
        guard let token = await graph.currentToken() else { throw .notLoggedIn }
        return Profile(try await graph.me(fields: fields(allowedBy: token)))
    }

    init(_ user: GraphUser) {
        self.userID = user.id
        self.name = user.name ?? user.id
        self.firstName = user.firstName
        self.middleName = user.middleName
        self.lastName = user.lastName
        self.link = user.link
        self.pictureURL = user.picture?.data.url
        self.email = user.email
        self.birthday = user.birthday
        self.hometown = user.hometown?.name
        self.location = user.location?.name
    }
}

/// The current person's profile, kept while the token stays the same and reloaded when it
/// changes (another login, more permissions, a log-out).
public actor CurrentProfile {
    private let graph: GraphClient
    private var loaded: (tokenString: String, profile: Profile)?

    /// A profile cache that reads through `graph`.
    public init(graph: GraphClient) {
        self.graph = graph
    }

    /// The profile for the current token: the kept one, or a fresh load when the token changed.
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer.
    public func profile() async throws(GraphError) -> Profile {
        guard let token = await graph.currentToken() else {
            loaded = nil
            throw .notLoggedIn
        }
        if let loaded, loaded.tokenString == token.tokenString { return loaded.profile }
        let profile = try await Profile.loadCurrent(using: graph)
        loaded = (token.tokenString, profile)
        return profile
    }
}
