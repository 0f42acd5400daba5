import Logging

/// The platform's storage and the stores over it: what `kinship serve` and the admin commands share.
public struct Platform: Sendable {
    public let database: Database
    public let users: UserStore
    public let apps: AppStore
    public let friends: FriendStore
    public let pictures: PictureStore
    let posts: PostStore
    let tokenCache: TokenCacheStore
    let authorizations: AuthorizationStore
    let codes: CodeStore
    let tokens: TokenStore
    let browserSessions: BrowserSessionStore
    let serverKeys: ServerKeyStore
    /// For SQLite: the counter that lets processes cache token checks safely. PostgreSQL
    /// deployments may span hosts, so their token checks always read the database.
    let grantGeneration: GrantGeneration?

    /// Opens the database (creating an SQLite file if there is none) and brings its schema up to date.
    public static func open(
        _ location: DatabaseLocation, bcryptCost: UInt8 = 12, logger: Logger
    ) async throws -> Platform {
        let database = Database(location: location, logger: logger)
        do {
            try await Migrator(database: database, logger: logger).migrate()
        } catch {
            await database.shutdown()
            throw PlatformError.cannotOpen(location.description, underlying: String(reflecting: error))
        }
        var generation: GrantGeneration?
        if case .sqlite(let path) = location { generation = GrantGeneration(databasePath: path) }
        return Platform(database: database, passwords: PasswordHasher(cost: bcryptCost), grantGeneration: generation)
    }

    init(database: Database, passwords: PasswordHasher, grantGeneration: GrantGeneration?) {
        self.database = database
        self.grantGeneration = grantGeneration
        self.users = UserStore(database: database, passwords: passwords, generation: grantGeneration)
        self.apps = AppStore(database: database)
        self.friends = FriendStore(database: database)
        self.pictures = PictureStore(database: database)
        self.posts = PostStore(database: database)
        self.tokenCache = TokenCacheStore(database: database)
        self.authorizations = AuthorizationStore(database: database, generation: grantGeneration)
        self.codes = CodeStore(database: database)
        self.tokens = TokenStore(database: database, generation: grantGeneration)
        self.browserSessions = BrowserSessionStore(database: database)
        self.serverKeys = ServerKeyStore(database: database)
    }

    /// Closes the database connections.
    public func close() async {
        await database.shutdown()
    }
}

/// Why the platform could not start.
public enum PlatformError: Error, CustomStringConvertible {
    case cannotOpen(String, underlying: String)

    public var description: String {
        switch self {
        case .cannotOpen(let location, let underlying):
            "Cannot open or migrate the database (\(location)): \(underlying)"
        }
    }
}
