import Foundation

/// Everything `kinship serve` can be told.
public struct ServerConfiguration: Sendable {
    /// The address to listen on. Loopback by default: put a TLS-terminating proxy in front to
    /// serve the outside world.
    public var host: String
    /// The port to listen on; `0` picks a free one.
    public var port: Int
    /// The URL people and apps reach the platform at (the OAuth `issuer`). Defaults to
    /// `http://HOST:PORT`.
    public var publicURL: String?
    /// Where the data lives.
    public var database: DatabaseLocation
    /// bcrypt's work factor for new passwords.
    public var bcryptCost: UInt8
    /// Failed logins allowed per account and per address in a sliding window.
    public var loginLimits: LoginLimits
    /// Seconds an authorization code may wait for its exchange.
    public var codeLifetime: Int
    /// Seconds a token from a login lives.
    public var shortTokenLifetime: Int
    /// Seconds a token from `fb_exchange_token` lives (60 days).
    public var longTokenLifetime: Int
    /// ``longTokenLifetime`` unless a deployment sets another.
    public static let defaultLongTokenLifetime = 60 * 24 * 60 * 60
    /// Seconds a refresh token stays valid unused (each use gives a new one).
    public var refreshTokenLifetime: Int
    /// Seconds after a refresh token's rotation during which using it again is taken for a
    /// concurrent refresh (answered) rather than a theft (which revokes its family).
    public var refreshReuseGrace: Int
    /// Seconds an OpenID Connect id_token is valid.
    public var idTokenLifetime: Int
    /// ``idTokenLifetime`` unless a deployment sets another.
    public static let defaultIDTokenLifetime = 60 * 60
    /// Seconds a person stays logged in to the dialog in one browser.
    public var browserSessionLifetime: Int
    /// The largest form body accepted, in bytes.
    public var maxFormBytes: Int
    /// Graph calls allowed per minute.
    public var graphLimits: GraphLimits
    /// Remote token cache requests one address may make per minute.
    public var tokenCacheRequestsPerMinute: Int
    /// Sign-up forms one address may submit per minute.
    public var signupsPerAddressPerMinute: Int
    /// Device logins (RFC 8628): how long a code lives, how often the device may poll, and how many
    /// codes may be typed on `/device`.
    public var deviceLogin: DeviceLogin
    /// How app callbacks (deauthorize, data deletion) are delivered.
    public var callbacks: Callbacks = .init()
    /// The secret the platform's own keys are derived from; every process of a deployment must
    /// share it (see ``ServerSecret``).
    public var secret: ServerSecret
    /// Seconds a connection may stay without a complete request head before it is closed: the
    /// keep-alive idle time, and the time a client has to send its headers (slow-header attacks).
    public var idleTimeout: Int
    /// The most connections open at once; past it, new connections are closed at once, so that
    /// open files and memory stay bounded whatever clients do.
    public var maxConnections: Int
    /// Where Prometheus scrapes `/metrics`: a listener apart from ``host``:``port``, loopback by
    /// default, so the figures are never public by accident. `nil` serves no metrics.
    public var metrics: MetricsListener?
    /// Reverse proxies whose `Forwarded` / `X-Forwarded-For` headers say who the client is (every
    /// per-address limit counts by it). Empty: those headers are ignored, the peer is the client.
    public var trustedProxies: [IPNetwork] = []
    /// The SMTP server password reset links are sent through; `nil` turns "Forgot your
    /// password?" off (the page says to ask the operator).
    public var mail: SMTPSettings?
    /// Where chat clients find this Kinship's chat server (`GET /chat/server`); `nil`: no chat.
    public var chatServer: ChatServerLocation?
    /// Password reset links: how long one works, and how many may be asked for.
    public var passwordResets: PasswordResets = .init()
    /// PostgreSQL: how long a process waits before listening again for other processes' grant
    /// changes after its listening connection was lost (token checks read the database meanwhile).
    public var grantListenerRetryDelay: Duration = .milliseconds(500)

    /// The metrics listener's address.
    public struct MetricsListener: Sendable {
        public var host: String
        /// `0` picks a free port.
        public var port: Int

        public init(host: String = "127.0.0.1", port: Int) {
            self.host = host
            self.port = port
        }
    }

    /// Failed logins allowed per account and per address in a sliding window.
    public struct LoginLimits: Sendable {
        public var perAccount: Int
        public var perAddress: Int
        public var windowSeconds: Int

        public init(perAccount: Int = 5, perAddress: Int = 20, windowSeconds: Int = 15 * 60) {
            self.perAccount = perAccount
            self.perAddress = perAddress
            self.windowSeconds = windowSeconds
        }
    }

    /// The limits of device logins (RFC 8628).
    /// How the outbox of app callbacks is delivered. Each process delivers; a delivery is claimed
    /// by one process at a time.
    public struct Callbacks: Sendable {
        /// Seconds between two looks at the outbox when it was empty.
        public var pollInterval: Double
        /// Seconds an app's server has to answer one callback.
        public var timeout: Int
        /// The most deliveries one process makes at once.
        public var batchSize: Int

        public init(pollInterval: Double = 1, timeout: Int = 10, batchSize: Int = 8) {
            self.pollInterval = pollInterval
            self.timeout = timeout
            self.batchSize = batchSize
        }
    }

    public struct DeviceLogin: Sendable {
        /// Seconds a device code waits for the person.
        public var codeLifetime: Int
        /// The least seconds between two polls; polling faster answers `slow_down` and adds 5 s.
        public var pollInterval: Int
        /// Device logins one address may start per minute.
        public var startsPerAddressPerMinute: Int
        /// Codes one address, and one person, may type on `/device` per window (right or wrong:
        /// counted first, so parallel guesses get no more).
        public var entriesPerWindow: Int
        public var entryWindowSeconds: Int

        public init(
            codeLifetime: Int = 10 * 60,
            pollInterval: Int = 5,
            startsPerAddressPerMinute: Int = 30,
            entriesPerWindow: Int = 10,
            entryWindowSeconds: Int = 15 * 60
        ) {
            self.codeLifetime = codeLifetime
            self.pollInterval = pollInterval
            self.startsPerAddressPerMinute = startsPerAddressPerMinute
            self.entriesPerWindow = entriesPerWindow
            self.entryWindowSeconds = entryWindowSeconds
        }
    }

    /// Graph calls allowed per minute for one person in one app (error 17), and for one app (error 4).
    public struct GraphLimits: Sendable {
        public var perUserPerMinute: Int
        public var perAppPerMinute: Int

        public init(perUserPerMinute: Int = 6_000, perAppPerMinute: Int = 600_000) {
            self.perUserPerMinute = perUserPerMinute
            self.perAppPerMinute = perAppPerMinute
        }
    }

    /// Limits on password reset links.
    public struct PasswordResets: Sendable {
        /// Seconds a link works (30 minutes).
        public var lifetime: Int
        /// Links mailed per account per hour; more asks are answered the same way but send nothing.
        public var perAccountPerHour: Int
        /// Reset forms one address may submit per hour.
        public var perAddressPerHour: Int

        public init(lifetime: Int = 30 * 60, perAccountPerHour: Int = 3, perAddressPerHour: Int = 20) {
            self.lifetime = lifetime
            self.perAccountPerHour = perAccountPerHour
            self.perAddressPerHour = perAddressPerHour
        }
    }

    /// A configuration with the defaults `kinship serve` uses. `secret` defaults to a fresh random
    /// one, which suits one process that is never restarted (a test); a server loads its own.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        publicURL: String? = nil,
        database: DatabaseLocation = .defaultSQLite,
        bcryptCost: UInt8 = 12,
        loginLimits: LoginLimits = .init(),
        codeLifetime: Int = 5 * 60,
        shortTokenLifetime: Int = 2 * 60 * 60,
        longTokenLifetime: Int = defaultLongTokenLifetime,
        idTokenLifetime: Int = defaultIDTokenLifetime,
        refreshTokenLifetime: Int = 90 * 24 * 60 * 60,
        refreshReuseGrace: Int = 5,
        browserSessionLifetime: Int = 30 * 24 * 60 * 60,
        maxFormBytes: Int = 16 * 1024,
        graphLimits: GraphLimits = .init(),
        tokenCacheRequestsPerMinute: Int = 120,
        signupsPerAddressPerMinute: Int = 10,
        deviceLogin: DeviceLogin = .init(),
        secret: ServerSecret = .generate(),
        idleTimeout: Int = 15,
        maxConnections: Int = 10_000,
        metrics: MetricsListener? = nil
    ) {
        self.host = host
        self.port = port
        self.publicURL = publicURL
        self.database = database
        self.bcryptCost = bcryptCost
        self.loginLimits = loginLimits
        self.codeLifetime = codeLifetime
        self.shortTokenLifetime = shortTokenLifetime
        self.longTokenLifetime = longTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.refreshReuseGrace = refreshReuseGrace
        self.browserSessionLifetime = browserSessionLifetime
        self.maxFormBytes = maxFormBytes
        self.graphLimits = graphLimits
        self.tokenCacheRequestsPerMinute = tokenCacheRequestsPerMinute
        self.signupsPerAddressPerMinute = signupsPerAddressPerMinute
        self.deviceLogin = deviceLogin
        self.secret = secret
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.metrics = metrics
    }
}
