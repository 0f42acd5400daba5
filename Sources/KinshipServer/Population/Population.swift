/// What a generated platform holds: people with names from several scripts, a skewed friend
/// graph, apps and the people's logins to them (each with a token), pending friend requests. For
/// benchmarks and trials of the platform at scale (`kinship populate`), never for real people.
public struct Population: Sendable {
    /// How many people.
    public var people: Int
    /// The friends a person has on average; how many varies widely (see ``FriendGraph``).
    public var averageFriends = 50
    /// The most friends anyone has.
    public var mostFriends = 5_000
    /// How many apps (people make some of them; four people in five use the first, and each uses up
    /// to three more, the popular ones most).
    public var apps: Int
    /// The same seed makes the same platform.
    public var seed: UInt64 = 1
    /// Every generated person's password, hashed once: logging in as any of them works.
    public var password = "kinship-demo"

    /// A platform of `people` people with one app for every 50 of them.
    public init(people: Int) {
        self.people = people
        self.apps = max(1, people / 50)
    }
}

/// What ``Platform/populate(_:progress:)`` made.
public struct PopulationReport: Sendable, Codable {
    public let people: Int
    /// Friendships, each counted once.
    public let friendships: Int
    public let apps: Int
    /// Logins of people to apps.
    public let logins: Int
    public let friendRequests: Int
    public let seconds: Double
    /// People to try things as, all with the population's password: `typical` has the average
    /// number of friends, `busiest` the most.
    public let probes: [Probe]

    /// A generated person picked for measurements.
    public struct Probe: Sendable, Codable {
        public let role: String
        public let id: String
        public let email: String
        public let friends: Int
    }
}

/// A step of ``Platform/populate(_:progress:)`` under way, for a progress line.
public struct PopulationProgress: Sendable {
    public let step: String
    public let done: Int
    public let total: Int
}

/// Why a platform was not populated.
public enum PopulationError: Error, CustomStringConvertible {
    case notEmpty(people: Int)
    case tooFew

    public var description: String {
        switch self {
        case .notEmpty(let people):
            "The database has \(people) people already: kinship populate fills a new, empty database. Pass another --database."
        case .tooFew:
            "A population needs at least 2 people."
        }
    }
}
