import Logging

/// The platform's storage and the stores over it: what `kinship serve` and the admin commands share.
public struct Platform: Sendable {
    public let database: Database
    /// The time every expiry, limit and timestamp is read from.
    public let clock: any WallClock
    public let users: UserStore
    public let apps: AppStore
    public let friends: FriendStore
    public let pictures: PictureStore
    /// App callbacks waiting to be delivered, and those delivered.
    public let callbacks: CallbackOutbox
    let posts: PostStore
    let tokenCache: TokenCacheStore
    let authorizations: AuthorizationStore
    let codes: CodeStore
    let deviceCodes: DeviceCodeStore
    let tokens: TokenStore
    let refreshTokens: RefreshTokenStore
    let redemptions: RedemptionStore
    let browserSessions: BrowserSessionStore
    let passwordResets: PasswordResetStore
    let rateLimits: RateLimitStore
    /// The counter that lets processes cache token checks safely: shared through a file on
    /// SQLite, kept current by `LISTEN/NOTIFY` on PostgreSQL (see ``GrantGeneration``).
    let grantGeneration: GrantGeneration?

    /// Opens the database (creating an SQLite file if there is none) and brings its schema up to date.
    ///
    /// - Parameters:
    ///   - bcryptCost: bcrypt's work factor for passwords set from now on (12 in production).
    ///   - clock: where the platform reads the time; the system clock unless a test moves its own.
    ///   - recordingStatements: keep every distinct SQL statement run, for
    ///     ``Database/recordedQueryPlans()``.
    ///   - threadScheduling: how the kernel schedules the SQLite connections' threads (`kinship
    ///     serve` batch-schedules them, with its event loops).
    public static func open(
        _ location: DatabaseLocation,
        bcryptCost: UInt8 = 12,
        clock: any WallClock = SystemClock(),
        recordingStatements: Bool = false,
        threadScheduling: ThreadScheduling = .inherited,
        logger: Logger
    ) async throws -> Platform {
        let database: Database
        do {
            database = try await Database.open(
                location,
                logger: logger,
                recordingStatements: recordingStatements,
                threadScheduling: threadScheduling
            )
        } catch {
            throw PlatformError.cannotOpen(location.description, underlying: String(describing: error))
        }
        do {
            try await Migrator(database: database, clock: clock, logger: logger).migrate()
        } catch {
            await database.close()
            throw PlatformError.cannotOpen(location.description, underlying: String(reflecting: error))
        }
        let generation: GrantGeneration?
        switch location {
        case .sqlite(let path):
            generation = GrantGeneration(databasePath: path)
        case .postgres:
            generation = GrantGeneration.announcing(through: database, logger: logger)
        }
        return Platform(
            database: database,
            clock: clock,
            passwords: PasswordHasher(cost: bcryptCost),
            grantGeneration: generation
        )
    }

    init(database: Database, clock: any WallClock, passwords: PasswordHasher, grantGeneration: GrantGeneration?) {
        self.database = database
        self.clock = clock
        self.grantGeneration = grantGeneration
        self.users = UserStore(database: database, clock: clock, passwords: passwords, generation: grantGeneration)
        self.apps = AppStore(database: database, clock: clock, generation: grantGeneration)
        self.friends = FriendStore(database: database, clock: clock)
        self.pictures = PictureStore(database: database, clock: clock)
        self.callbacks = CallbackOutbox(database: database, clock: clock)
        self.posts = PostStore(database: database, clock: clock)
        self.tokenCache = TokenCacheStore(database: database, clock: clock)
        self.authorizations = AuthorizationStore(database: database, clock: clock, generation: grantGeneration)
        self.codes = CodeStore(database: database, clock: clock)
        self.deviceCodes = DeviceCodeStore(database: database, clock: clock)
        self.tokens = TokenStore(database: database, clock: clock, generation: grantGeneration)
        self.refreshTokens = RefreshTokenStore(database: database, clock: clock, generation: grantGeneration)
        self.redemptions = RedemptionStore(database: database, clock: clock)
        self.browserSessions = BrowserSessionStore(database: database, clock: clock)
        self.passwordResets = PasswordResetStore(database: database, clock: clock, passwords: passwords, generation: grantGeneration)
        self.rateLimits = RateLimitStore(database: database, clock: clock)
    }

    /// Closes the database connections.
    public func close() async {
        await database.close()
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
