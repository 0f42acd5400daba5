import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Builds the HTTP application `kinship serve` runs: every route, the middleware around them, and
/// the services they share.
public enum KinshipApplication {
    /// The application, ready to run on `configuration.host:configuration.port`.
    ///
    /// - Parameters:
    ///   - builtInApps: apps the deployment serves from this process (the sample app),
    ///     registered and mounted at start; see ``BuiltInApp``.
    ///   - metrics: where the server counts what it does; served to Prometheus when
    ///     ``ServerConfiguration/metrics`` names a listener.
    ///   - chatServer: the Prosody this process runs for Kinship Chat (`serve --chat`), started
    ///     once the server listens.
    public static func make(
        platform: Platform,
        configuration: ServerConfiguration,
        builtInApps: [BuiltInApp] = [],
        metrics: ServerMetrics = ServerMetrics(),
        chatServer: ChatServerSupervisor? = nil,
        logger: Logger
    ) async throws -> some ApplicationProtocol {
        let pages = try await PageRenderer.load()
        let csrf = CSRFProtection(key: configuration.secret.key(for: "csrf"))
        let issuer = Issuer(configuration.publicURL ?? Issuer.loopbackURL(host: configuration.host, port: configuration.port))
        let inspector = TokenInspector(platform: platform)
        let clients = ClientAuthenticator(apps: platform.apps)
        let appTokens = AppAccessTokens(apps: platform.apps, secret: configuration.secret)

        let router = Router(context: KinshipRequestContext.self)
        if !configuration.trustedProxies.isEmpty {
            router.add(middleware: ClientAddressMiddleware(resolver: ClientAddress(trustedProxies: configuration.trustedProxies)))
        }
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: SecurityHeadersMiddleware())
        HealthController(platform: platform).addRoutes(to: router)
        router.get("/assets/kinship.css") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: pages.stylesheet))
            )
        }
        let apiDocument = try await APIDocument.load()
        router.get("/openapi.json") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(bytes: apiDocument))
            )
        }
        let signingKeys = SigningKeys(platform: platform, secret: configuration.secret, idTokenLifetime: configuration.idTokenLifetime)
        try await signingKeys.prepare()
        DiscoveryController(issuer: issuer, signingKeys: signingKeys).addRoutes(to: router)
        let cookies = BrowserCookies(secure: issuer.url.hasPrefix("https://"), sessionLifetime: configuration.browserSessionLifetime)
        let passwordLogin = PasswordLogin(
            platform: platform,
            metrics: metrics,
            throttle: LoginThrottle(database: platform.database, clock: platform.clock, limits: configuration.loginLimits),
            sessionLifetime: configuration.browserSessionLifetime,
            decoyPasswordHash: PasswordHasher(cost: configuration.bcryptCost).decoyHash()
        )
        DialogController(
            platform: platform,
            configuration: configuration,
            metrics: metrics,
            pages: pages,
            validator: DialogRequestValidator(apps: platform.apps, pages: pages, issuer: issuer),
            csrf: csrf,
            passwordLogin: passwordLogin,
            cookies: cookies
        ).addRoutes(to: router)
        let account = AccountPages(platform: platform, configuration: configuration, pages: pages, csrf: csrf, cookies: cookies)
        let access = AccessController(account: account, passwordLogin: passwordLogin)
        access.addRoutes(to: router)
        ProfileController(account: account).addRoutes(to: router)
        FriendsController(account: account).addRoutes(to: router)
        AppsController(account: account).addRoutes(to: router)
        PeopleController(account: account).addRoutes(to: router)
        SecurityController(account: account, passwordLogin: passwordLogin).addRoutes(to: router)
        DeletionController(account: account, passwordLogin: passwordLogin).addRoutes(to: router)
        let mailer = configuration.mail.map { settings in
            Mailer(
                client: SMTPClient(settings: settings, clientName: URL(string: configuration.publicURL ?? "")?.host ?? "localhost"),
                senderName: "Kinship",
                logger: logger
            )
        }
        PasswordResetController(account: account, mailer: mailer, issuer: issuer).addRoutes(to: router)
        let callbackSettings = AppCallbackSettings(platform: platform, secret: configuration.secret)
        DeveloperController(account: account, callbackSettings: callbackSettings).addRoutes(to: router)
        AdminController(account: account).addRoutes(to: router)
        DevicePageController(account: account).addRoutes(to: router)
        var installed: [String] = []
        for app in builtInApps
        where try await app.install(on: router, platform: platform, configuration: configuration, issuer: issuer, logger: logger) {
            installed.append(app.name)
        }
        let servedApps = installed
        let builtInWithCallbacks = builtInApps.filter { installed.contains($0.name) }
        TokenController(
            platform: platform,
            configuration: configuration,
            metrics: metrics,
            clients: clients,
            inspector: inspector,
            issuer: issuer,
            signingKeys: signingKeys,
            appTokens: appTokens
        ).addRoutes(to: router)
        UserInfoController(inspector: inspector, issuer: issuer, configuration: configuration).addRoutes(to: router)
        DebugTokenController(platform: platform, inspector: inspector, appTokens: appTokens).addRoutes(to: router)
        let chatGate = ChatServerGate(sharedSecret: ChatAuthController.sharedSecret(from: configuration.secret))
        ChatAuthController(
            inspector: inspector,
            logins: ChatLogins(database: platform.database),
            gate: chatGate,
            maxFormBytes: configuration.maxFormBytes
        ).addRoutes(to: router)
        ChatRosterController(platform: platform, gate: chatGate, maxFormBytes: configuration.maxFormBytes).addRoutes(to: router)
        ChatVCardController(platform: platform, gate: chatGate, maxFormBytes: configuration.maxFormBytes).addRoutes(to: router)
        configuration.chatServer?.addRoute(to: router)
        RevocationController(platform: platform, configuration: configuration, clients: clients).addRoutes(to: router)
        DeviceAuthorizationController(platform: platform, configuration: configuration, clients: clients, issuer: issuer)
            .addRoutes(to: router)
        TokenCacheController(
            store: platform.tokenCache,
            rateLimits: platform.rateLimits,
            perAddressPerMinute: configuration.tokenCacheRequestsPerMinute
        ).addRoutes(to: router)
        let throttle = GraphThrottle(limits: configuration.graphLimits, clock: platform.clock)
        GraphController(
            service: GraphService(platform: platform, inspector: inspector, appTokens: appTokens, throttle: throttle),
            issuer: issuer,
            configuration: configuration,
            metrics: metrics
        ).addRoutes(to: router, home: access.home)

        let publicURLConfigured = configuration.publicURL != nil
        let host = configuration.host
        let connections = OpenConnections(limit: configuration.maxConnections)
        var services: [any Service] = [
            CallbackDeliverer(
                outbox: platform.callbacks,
                apps: platform.apps,
                settings: callbackSettings,
                clock: platform.clock,
                configuration: configuration.callbacks,
                metrics: metrics,
                logger: logger
            )
        ]
        if case .postgres(let postgres) = platform.database.location, let generation = platform.grantGeneration {
            services.append(
                GrantNotificationListener(
                    configuration: postgres,
                    generation: generation,
                    retryDelay: configuration.grantListenerRetryDelay,
                    logger: logger
                )
            )
        }
        if let mailer { services.append(mailer) }
        if let chatServer { services.append(chatServer) }
        if let listener = configuration.metrics {
            services.append(
                MetricsEndpoint.make(metrics: metrics, platform: platform, host: listener.host, port: listener.port, logger: logger)
            )
        }
        return Application(
            responder: APIVersionStrippingResponder(responder: router.buildResponder()),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [ConnectionLimitHandler(connections: connections)],
                    idleTimeout: .seconds(Int64(configuration.idleTimeout))
                )
            ),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Kinship"),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                if !publicURLConfigured { issuer.update(Issuer.loopbackURL(host: host, port: port)) }
                chatServer?.kinshipListening(at: Issuer.loopbackURL(host: host, port: port))
                for app in builtInWithCallbacks {
                    await app.registerCallbacks(baseURL: issuer.url, settings: callbackSettings, configuration: configuration, logger: logger)
                }
                logger.info(
                    "Kinship is listening",
                    metadata: [
                        "url": "\(issuer.url)", "idle_timeout_s": "\(configuration.idleTimeout)",
                        "max_connections": "\(configuration.maxConnections)",
                    ]
                )
                let apps = servedApps.isEmpty ? "" : "; built-in apps: " + servedApps.joined(separator: ", ")
                logger.info("Pages: sign up at \(issuer.url)/signup, your account at \(issuer.url)/account\(apps)")
            },
            logger: logger
        )
    }
}
