import ArgumentParser
import Foundation
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

            Every option can also come from the environment or a JSON file, under one name: --graph-calls-per-user \
            is KINSHIP_GRAPH_CALLS_PER_USER and "graph_calls_per_user" in the file given with --config (or \
            KINSHIP_CONFIG). The command line wins over the environment, which wins over the file, which wins over \
            the defaults. --print-config shows what a start would use and where each value came from, secrets \
            masked. Secrets never need the command line: KINSHIP_DATABASE holds a PostgreSQL URL, \
            KINSHIP_SMTP_PASSWORD or --smtp-password-file the SMTP password.

            The platform's keys are derived from a server secret kept outside the database: with SQLite it is \
            created beside the database file (DATABASE-secret, mode 0600) on first start. Several processes may \
            share one PostgreSQL database behind a load balancer; give each the same --secret-file.
            """
    )

    @OptionGroup var storage: DatabaseOptions
    @Option(help: ArgumentHelp("A JSON file of settings (see above); or KINSHIP_CONFIG.", valueName: "path"))
    var config: String?
    @Flag(name: .customLong("print-config"), help: "Print the settings a start would use, and where each came from; then exit.")
    var printConfig = false
    @Option(help: "The address to listen on (default: 127.0.0.1).") var host: String?
    @Option(help: "The port to listen on; 0 picks a free one (default: 8080).") var port: Int?
    @Option(name: .customLong("public-url"), help: "The URL people reach the platform at (the OAuth issuer), e.g. https://login.example.com.")
    var publicURL: String?
    @Option(
        name: .customLong("secret-file"),
        help: ArgumentHelp(
            "The server secret file.",
            discussion: "Default with SQLite: DATABASE-secret, created when missing. Required with PostgreSQL.",
            valueName: "path"
        )
    )
    var secretFile: String?
    @Flag(help: "Create a demo app and demo people with friendships if the database is empty, and print how to log in.")
    var demo = false
    @Flag(name: .customLong("no-sample-app"), help: "Do not register and serve the sample social app at /sample.")
    var withoutSampleApp = false
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (default: info).")
    var logLevel: Logger.Level?
    @Option(
        name: .customLong("thread-scheduling"),
        help: ArgumentHelp(
            "batch or inherited (default: batch): how Linux schedules the event loops and the database threads.",
            discussion: "batch (SCHED_BATCH) lets them wait for the running request handler's turn when they wake instead of "
                + "preempting it: measured on 2 cores, a code exchange took 7-13% less CPU and refresh grants ran 10-18% faster, "
                + "while logins keeping every core busy hashing passwords made light requests wait a few milliseconds more. "
                + "inherited keeps the policy the process started with (the kernel's default, or systemd's CPUSchedulingPolicy=).",
            valueName: "policy"
        )
    )
    var threadScheduling: ThreadScheduling?
    @OptionGroup(title: "Limits") var limits: LimitOptions
    @OptionGroup(title: "Lifetimes") var lifetimes: LifetimeOptions
    @OptionGroup(title: "Connections and metrics") var connections: ConnectionOptions
    @OptionGroup(title: "Mail") var mail: MailOptions
    @OptionGroup(title: "Kinship Chat") var chat: ChatOptions
    @Option(
        name: .customLong("explain-queries"),
        help: ArgumentHelp(
            "On stopping, write the query plan of every distinct SQL statement served to this file.",
            discussion: "For checking that what the platform does uses indexes (Benchmarks/scale.py reads it). Statements "
                + "are kept in memory from the start of serving to the stop; the file holds SQL and plans, never values.",
            valueName: "path"
        )
    )
    var explainQueries: String?

    func run() async throws {
        AllocatorSettings.apply()
        let eventLoopSizing = ProcessorAffinity.sizeEventLoops()
        guard #available(macOS 15, iOS 18, *) else {
            throw SettingsError("kinship serve needs macOS 15 or later (swift-configuration reads its settings).")
        }
        let environment = ProcessInfo.processInfo.environment
        let settings = try await ServeSettings.load(
            flags: flagValues(),
            configFile: config ?? environment["KINSHIP_CONFIG"],
            knownKeys: ServeCommand.settingKeys
        )
        let resolved = try ResolvedServeSettings(settings)
        if printConfig {
            print(ResolvedServeSettings.report(settings.entries))
            return
        }
        let logLevel = resolved.logLevel
        LoggingSystem.bootstrap { label in ConsoleLogHandler(label: label, logLevel: logLevel) }
        let logger = Logger(label: "kinship")
        ResolvedServeSettings.warnAboutUnknownVariables(in: environment, logger: logger)
        await ThreadSchedulingReport.apply(resolved.threadScheduling, logger: logger)
        if let eventLoopSizing {
            logger.info(
                "Running one event loop per processor this process may run on (its CPU affinity), fewer than the processors counted",
                metadata: ["event_loops": "\(eventLoopSizing.eventLoops)", "processors": "\(eventLoopSizing.processors)"]
            )
        }
        var configuration = resolved.configuration
        configuration.secret = try ServerSecretOptions.load(explicitPath: resolved.secretFile, database: configuration.database, logger: logger)
        configuration.maxConnections = OpenFileLimit.raise(toServe: configuration.maxConnections, logger: logger)
        logger.info("Opening the database", metadata: ["database": "\(configuration.database)"])
        let platform = try await Platform.open(
            configuration.database,
            bcryptCost: configuration.bcryptCost,
            recordingStatements: resolved.explainQueries != nil,
            threadScheduling: resolved.threadScheduling,
            logger: logger
        )
        let builtInApps = resolved.servesSampleApp ? [BuiltInApp.sample] : []
        do {
            var chatServer: ChatServerSupervisor?
            if let supervised = resolved.supervisedChat {
                let supervisor = try ChatServerSupervisor(settings: supervised, secret: configuration.secret, logger: logger)
                configuration.chatServer = supervisor.location
                chatServer = supervisor
            }
            if resolved.demo { try await DemoBanner.seedAndPrint(platform, builtInAppIDs: Set(builtInApps.map(\.id))) }
            let application = try await KinshipApplication.make(
                platform: platform,
                configuration: configuration,
                builtInApps: builtInApps,
                chatServer: chatServer,
                logger: logger
            )
            platform.database.forgetRecordedStatements()
            try await application.runService()
            if let path = resolved.explainQueries { try await QueryPlanReport.write(platform.database, to: path, logger: logger) }
        } catch {
            await platform.close()
            throw error
        }
        await platform.close()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
