import KinshipCore

/// The demo app and people `kinship serve --demo` puts in an empty database, for the README's tour.
public enum DemoData {
    /// The password every demo person has.
    public static let password = "kinship-demo"

    /// What was created, with the only clear copy of the app's secret.
    public struct Credentials: Sendable {
        public let app: AppRecord
        public let clientSecret: String
        public let users: [UserRecord]
    }

    static let people: [NewUser] = [
        NewUser(
            name: "Ada Lovelace",
            email: "ada@example.com",
            password: password,
            username: "ada",
            gender: "female",
            locale: "en_GB",
            birthday: "1815-12-10"
        ),
        NewUser(
            name: "Grace Hopper",
            email: "grace@example.com",
            password: password,
            username: "grace",
            gender: "female",
            locale: "en_US",
            birthday: "1906-12-09"
        ),
        NewUser(
            name: "Alan Turing",
            email: "alan@example.com",
            password: password,
            username: "alan",
            gender: "male",
            locale: "en_GB",
            birthday: "1912-06-23"
        ),
        NewUser(
            name: "张伟",
            email: "zhangwei@example.com",
            password: password,
            username: "zhangwei",
            firstName: "伟",
            lastName: "张",
            locale: "zh_CN"
        ),
        NewUser(
            name: "Émile Zola",
            email: "emile@example.com",
            password: password,
            username: "emile",
            gender: "male",
            locale: "fr_FR",
            birthday: "1840-04-02"
        ),
    ]

    /// Friendships by index into ``people``: Ada knows everyone; Grace and Alan know each other.
    static let friendships = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2)]

    /// The people (by index) who already use the demo app and share their friend list with it,
    /// so that Ada's friends show up once she logs in.
    static let appUsers = [1, 2, 3, 4]

    /// Creates the demo app and people when the database has no accounts and no apps but the
    /// built-in ones (`builtInAppIDs`); returns `nil` (and changes nothing) otherwise.
    public static func seedIfEmpty(_ platform: Platform, builtInAppIDs: Set<String> = []) async throws -> Credentials? {
        guard try await platform.users.list().isEmpty,
            try await platform.apps.list().allSatisfy({ builtInAppIDs.contains($0.id) })
        else { return nil }
        let (app, secret) = try await platform.apps.create(
            name: "Kinship Demo",
            redirectURIs: ["http://127.0.0.1/callback"],
            isConfidential: false
        )
        var users: [UserRecord] = []
        for person in people {
            users.append(try await platform.users.create(person))
        }
        for (first, second) in friendships {
            try await platform.friends.befriend(users[first].id, users[second].id)
        }
        for index in appUsers {
            _ = try await platform.authorizations.recordConsent(userID: users[index].id, appID: app.id, granted: [.userFriends], declined: [])
        }
        return Credentials(app: app, clientSecret: secret, users: users)
    }
}
