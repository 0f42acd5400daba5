import ArgumentParser
import Hummingbird
import KinshipServer
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the platform: login dialog, token endpoints and the APIs.",
        discussion: """
            Listens on 127.0.0.1:8080 by default. Stops cleanly on Ctrl-C or SIGTERM. \
            Several processes may share one PostgreSQL database behind a load balancer.
            """)

    @OptionGroup var storage: DatabaseOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks a free one.") var port = 8080
    @Option(name: .customLong("public-url"), help: "The URL people reach the platform at (the OAuth issuer), e.g. https://login.example.com.")
    var publicURL: String?
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

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535.") }
        guard graphCallsPerUser > 0, graphCallsPerApp > 0 else {
            throw ValidationError("--graph-calls-per-user and --graph-calls-per-app must be at least 1.")
        }
    }

    func run() async throws {
        let logLevel = self.logLevel
        LoggingSystem.bootstrap { label in ConsoleLogHandler(label: label, logLevel: logLevel) }
        let logger = Logger(label: "kinship")
        let configuration = ServerConfiguration(
            host: host, port: port, publicURL: publicURL, database: try storage.location(),
            graphLimits: .init(perUserPerMinute: graphCallsPerUser, perAppPerMinute: graphCallsPerApp),
            servesSampleApp: !withoutSampleApp)
        logger.info("Opening the database", metadata: ["database": "\(configuration.database)"])
        let platform = try await Platform.open(configuration.database, bcryptCost: configuration.bcryptCost, logger: logger)
        do {
            if demo { try await DemoBanner.seedAndPrint(platform) }
            let application = try await KinshipApplication.make(platform: platform, configuration: configuration, logger: logger)
            try await application.runService()
        } catch {
            await platform.close()
            throw error
        }
        await platform.close()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
