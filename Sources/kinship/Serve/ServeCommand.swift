import ArgumentParser
import Hummingbird
import KinshipServer
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the platform: login dialog, token endpoints, the APIs and the account pages.",
        discussion: """
            Listens on 127.0.0.1:8080 by default and serves the sample social app at /sample. Stops cleanly on \
            Ctrl-C or SIGTERM.

            The platform's keys are derived from a server secret kept outside the database: with SQLite it is \
            created beside the database file (DATABASE-secret, mode 0600) on first start. Several processes may \
            share one PostgreSQL database behind a load balancer; give each the same --secret-file.
            """)

    @OptionGroup var storage: DatabaseOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks a free one.") var port = 8080
    @Option(name: .customLong("public-url"), help: "The URL people reach the platform at (the OAuth issuer), e.g. https://login.example.com.")
    var publicURL: String?
    @Option(
        name: .customLong("secret-file"),
        help: ArgumentHelp(
            "The server secret file.", discussion: "Default with SQLite: DATABASE-secret, created when missing. Required with PostgreSQL.",
            valueName: "path"))
    var secretFile: String?
    @Flag(help: "Create a demo app and demo people with friendships if the database is empty, and print how to log in.")
    var demo = false
    @Flag(name: .customLong("no-sample-app"), help: "Do not register and serve the sample social app at /sample.")
    var withoutSampleApp = false
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info
    @Option(name: .customLong("graph-calls-per-user"), help: "Graph calls one person may make through one app per minute (then error 17).")
    var graphCallsPerUser = ServerConfiguration.GraphLimits().perUserPerMinute
    @Option(name: .customLong("graph-calls-per-app"), help: "Graph calls one app may make per minute (then error 4).")
    var graphCallsPerApp = ServerConfiguration.GraphLimits().perAppPerMinute
    @Option(name: .customLong("idle-timeout"), help: "Seconds a connection may wait without a complete request before it is closed.")
    var idleTimeout = ServerConfiguration().idleTimeout
    @Option(name: .customLong("max-connections"), help: "The most connections held open at once; more are closed at once.")
    var maxConnections = ServerConfiguration().maxConnections
    @Option(
        name: .customLong("failed-logins-per-account"),
        help: "Password attempts one account may fail in 15 minutes before it must wait; attempts being checked count too.")
    var failedLoginsPerAccount = ServerConfiguration.LoginLimits().perAccount
    @Option(
        name: .customLong("failed-logins-per-address"),
        help: "Password attempts one address may fail in 15 minutes before it must wait; attempts being checked count too.")
    var failedLoginsPerAddress = ServerConfiguration.LoginLimits().perAddress
    @Option(name: .customLong("signups-per-address"), help: "Sign-up forms one address may submit per minute (then 429).")
    var signupsPerAddress = ServerConfiguration().signupsPerAddressPerMinute
    @Option(
        name: .customLong("bcrypt-cost"),
        help: "bcrypt's work factor for new passwords, 4 to 16 (default 12). Lower it only for tests.")
    var bcryptCost: UInt8 = 12
    @Option(
        name: .customLong("metrics-port"),
        help: ArgumentHelp(
            "Serve Prometheus metrics at /metrics on this port (0 picks a free one); off when not given.",
            discussion: "A listener of its own, apart from --port, so the figures are never public by accident."))
    var metricsPort: Int?
    @Option(name: .customLong("metrics-host"), help: "The address the metrics listener binds to.")
    var metricsHost = "127.0.0.1"
    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A reverse proxy (an address or a CIDR range) whose Forwarded / X-Forwarded-For header names the client; repeat for several.",
            discussion: "Every per-address limit then counts by the address the proxy saw. Without it those headers are ignored.",
            valueName: "cidr"))
    var trustedProxies: [String] = []
    @OptionGroup(title: "Mail") var mail: MailOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535.") }
        guard graphCallsPerUser > 0, graphCallsPerApp > 0 else {
            throw ValidationError("--graph-calls-per-user and --graph-calls-per-app must be at least 1.")
        }
        guard (1...3_600).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be 1 to 3600 seconds.") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1.") }
        guard failedLoginsPerAccount >= 1, failedLoginsPerAddress >= 1 else {
            throw ValidationError("--failed-logins-per-account and --failed-logins-per-address must be at least 1.")
        }
        guard signupsPerAddress >= 1 else { throw ValidationError("--signups-per-address must be at least 1.") }
        guard (4...16).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be 4 to 16.") }
        if let bad = trustedProxies.first(where: { IPNetwork($0) == nil }) {
            throw ValidationError("--trusted-proxy \(bad) is not an address or a CIDR range such as 10.0.0.0/8 or 2001:db8::/32.")
        }
        if let metricsPort {
            guard (0...65_535).contains(metricsPort) else { throw ValidationError("--metrics-port must be 0 to 65535.") }
            guard metricsPort == 0 || metricsPort != port || metricsHost != host else {
                throw ValidationError("--metrics-port must differ from --port: the metrics get a listener of their own.")
            }
        }
        _ = try mail.settings()
    }

    func run() async throws {
        let logLevel = self.logLevel
        LoggingSystem.bootstrap { label in ConsoleLogHandler(label: label, logLevel: logLevel) }
        let logger = Logger(label: "kinship")
        let location = try storage.location()
        let secret = try ServerSecretOptions.load(explicitPath: secretFile, database: location, logger: logger)
        let connectionLimit = OpenFileLimit.raise(toServe: maxConnections, logger: logger)
        var configuration = ServerConfiguration(
            host: host, port: port, publicURL: publicURL, database: location, bcryptCost: bcryptCost,
            loginLimits: .init(perAccount: failedLoginsPerAccount, perAddress: failedLoginsPerAddress),
            graphLimits: .init(perUserPerMinute: graphCallsPerUser, perAppPerMinute: graphCallsPerApp),
            signupsPerAddressPerMinute: signupsPerAddress, secret: secret,
            idleTimeout: idleTimeout, maxConnections: connectionLimit,
            metrics: metricsPort.map { ServerConfiguration.MetricsListener(host: metricsHost, port: $0) })
        configuration.trustedProxies = trustedProxies.compactMap(IPNetwork.init)
        configuration.mail = try mail.settings()
        logger.info("Opening the database", metadata: ["database": "\(configuration.database)"])
        let platform = try await Platform.open(configuration.database, bcryptCost: configuration.bcryptCost, logger: logger)
        let builtInApps = withoutSampleApp ? [] : [BuiltInApp.sample]
        do {
            if demo { try await DemoBanner.seedAndPrint(platform, builtInAppIDs: Set(builtInApps.map(\.id))) }
            let application = try await KinshipApplication.make(
                platform: platform, configuration: configuration, builtInApps: builtInApps, logger: logger)
            try await application.runService()
        } catch {
            await platform.close()
            throw error
        }
        await platform.close()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
