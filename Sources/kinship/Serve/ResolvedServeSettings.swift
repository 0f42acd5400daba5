import ArgumentParser
import Foundation
import KinshipServer
import Logging

/// What `kinship serve` runs with, read from ``ServeSettings`` and checked: each value that is out
/// of range is refused with the place it came from (`--port`, `KINSHIP_PORT`, the file), so the
/// operator knows what to fix.
@available(macOS 15, iOS 18, *)
struct ResolvedServeSettings {
    var configuration: ServerConfiguration
    var secretFile: String?
    var demo: Bool
    var servesSampleApp: Bool
    /// The chat server `--chat` runs; `nil` without `--chat`.
    var supervisedChat: ChatServerSupervisor.Settings?
    var logLevel: Logger.Level
    /// How the kernel schedules the event loops and the database threads.
    var threadScheduling: ThreadScheduling
    /// Where to write the query plans of the statements served, on stopping.
    var explainQueries: String?

    init(_ settings: ServeSettings) throws {
        let defaults = ServerConfiguration()
        func number(_ key: String, _ fallback: Int, _ range: ClosedRange<Int> = 1...Int.max) throws -> Int {
            let value = settings.int(key, default: fallback)
            guard range.contains(value) else {
                let bounds = range.upperBound == Int.max ? "at least \(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
                throw SettingsError("\(settings.origin(of: key)) is \(value); it must be \(bounds).")
            }
            return value
        }
        let database = settings.string("database", default: DatabaseOptions.defaultDatabase)
        var configuration = ServerConfiguration(
            host: settings.string("host", default: defaults.host),
            port: try number("port", defaults.port, 0...65_535),
            publicURL: settings.string("public_url"),
            database: try DatabaseOptions.location(parsing: database),
            bcryptCost: UInt8(try number("bcrypt_cost", Int(defaults.bcryptCost), 4...16)),
            loginLimits: .init(
                perAccount: try number("failed_logins_per_account", defaults.loginLimits.perAccount),
                perAddress: try number("failed_logins_per_address", defaults.loginLimits.perAddress),
                windowSeconds: try number("login_window", defaults.loginLimits.windowSeconds)
            ),
            codeLifetime: try number("code_lifetime", defaults.codeLifetime),
            shortTokenLifetime: try number("token_lifetime", defaults.shortTokenLifetime),
            longTokenLifetime: try number("long_token_lifetime", defaults.longTokenLifetime),
            idTokenLifetime: try number("id_token_lifetime", defaults.idTokenLifetime),
            refreshTokenLifetime: try number("refresh_token_lifetime", defaults.refreshTokenLifetime),
            refreshReuseGrace: try number("refresh_reuse_grace", defaults.refreshReuseGrace, 0...3_600),
            browserSessionLifetime: try number("session_lifetime", defaults.browserSessionLifetime),
            maxFormBytes: try number("max_form_bytes", defaults.maxFormBytes, 1_024...1_048_576),
            graphLimits: .init(
                perUserPerMinute: try number("graph_calls_per_user", defaults.graphLimits.perUserPerMinute),
                perAppPerMinute: try number("graph_calls_per_app", defaults.graphLimits.perAppPerMinute)
            ),
            tokenCacheRequestsPerMinute: try number("token_cache_requests_per_minute", defaults.tokenCacheRequestsPerMinute),
            signupsPerAddressPerMinute: try number("signups_per_address", defaults.signupsPerAddressPerMinute),
            deviceLogin: .init(
                codeLifetime: try number("device_code_lifetime", defaults.deviceLogin.codeLifetime),
                pollInterval: try number("device_poll_interval", defaults.deviceLogin.pollInterval),
                startsPerAddressPerMinute: try number("device_starts_per_address", defaults.deviceLogin.startsPerAddressPerMinute),
                entriesPerWindow: try number("device_entries_per_window", defaults.deviceLogin.entriesPerWindow),
                entryWindowSeconds: try number("device_entry_window", defaults.deviceLogin.entryWindowSeconds)
            ),
            idleTimeout: try number("idle_timeout", defaults.idleTimeout, 1...3_600),
            maxConnections: try number("max_connections", defaults.maxConnections)
        )
        let pollInterval = settings.double("callback_poll_interval", default: defaults.callbacks.pollInterval)
        guard pollInterval > 0, pollInterval <= 3_600 else {
            throw SettingsError("\(settings.origin(of: "callback_poll_interval")) must be more than 0 and at most 3600 seconds.")
        }
        configuration.callbacks = .init(
            pollInterval: pollInterval,
            timeout: try number("callback_timeout", defaults.callbacks.timeout, 1...300),
            batchSize: try number("callback_batch_size", defaults.callbacks.batchSize, 1...256)
        )
        configuration.passwordResets = .init(
            lifetime: try number("reset_link_lifetime", defaults.passwordResets.lifetime, 60...86_400),
            perAccountPerHour: try number("reset_links_per_account", defaults.passwordResets.perAccountPerHour),
            perAddressPerHour: try number("reset_forms_per_address", defaults.passwordResets.perAddressPerHour)
        )
        let proxies = settings.strings("trusted_proxy")
        if let bad = proxies.first(where: { IPNetwork($0) == nil }) {
            throw SettingsError(
                "\(settings.origin(of: "trusted_proxy")) names \(bad), which is not an address or a CIDR range "
                    + "such as 10.0.0.0/8 or 2001:db8::/32."
            )
        }
        configuration.trustedProxies = proxies.compactMap(IPNetwork.init)
        if let metricsPort = settings.int("metrics_port") {
            guard (0...65_535).contains(metricsPort) else { throw SettingsError("\(settings.origin(of: "metrics_port")) must be 0 to 65535.") }
            let listener = ServerConfiguration.MetricsListener(host: settings.string("metrics_host", default: "127.0.0.1"), port: metricsPort)
            guard metricsPort == 0 || metricsPort != configuration.port || listener.host != configuration.host else {
                throw SettingsError("The metrics port must differ from the port: the metrics get a listener of their own.")
            }
            configuration.metrics = listener
        }
        configuration.mail = try Self.mail(settings)
        let chatDomain = settings.string("chat_domain", default: "localhost")
        let chatPort = try number("chat_port", 5222, 1...65_535)
        if settings.bool("chat", default: false) {
            let folder = URL(fileURLWithPath: settings.string("chat_folder", default: "kinship-chat")).standardizedFileURL.path
            supervisedChat = .init(folder: folder, domain: chatDomain, port: chatPort)
        } else if settings.string("chat_domain") != nil {
            configuration.chatServer = ChatServerLocation(domain: chatDomain, host: settings.string("chat_host", default: chatDomain), port: chatPort)
        }
        self.configuration = configuration
        secretFile = settings.string("secret_file")
        explainQueries = settings.string("explain_queries")
        demo = settings.bool("demo", default: false)
        servesSampleApp = settings.bool("sample_app", default: true)
        let level = settings.string("log_level", default: "info")
        guard let logLevel = Logger.Level(rawValue: level) else {
            throw SettingsError("\(settings.origin(of: "log_level")) is \(level); use trace, debug, info, notice, warning, error or critical.")
        }
        self.logLevel = logLevel
        let scheduling = settings.string("thread_scheduling", default: ThreadScheduling.batch.rawValue)
        guard let threadScheduling = ThreadScheduling(rawValue: scheduling) else {
            throw SettingsError("\(settings.origin(of: "thread_scheduling")) is \(scheduling); use batch or inherited.")
        }
        self.threadScheduling = threadScheduling
    }

    /// The SMTP settings, or `nil` when no SMTP host is set.
    private static func mail(_ settings: ServeSettings) throws -> SMTPSettings? {
        guard let host = settings.string("smtp_host") else {
            for key in ["smtp_username", "smtp_password_file", "mail_from"] where settings.string(key) != nil {
                throw SettingsError("\(settings.origin(of: key)) needs an SMTP host (--smtp-host).")
            }
            return nil
        }
        guard let sender = settings.string("mail_from") else {
            throw SettingsError("The SMTP host needs --mail-from (or KINSHIP_MAIL_FROM): the address mail comes from.")
        }
        let securityName = settings.string("smtp_security", default: SMTPSettings.Security.startTLS.rawValue)
        guard let security = SMTPSettings.Security(rawValue: securityName) else {
            throw SettingsError("\(settings.origin(of: "smtp_security")) is \(securityName); use starttls, tls or none.")
        }
        var password = settings.string("smtp_password")
        if let file = settings.string("smtp_password_file") {
            do {
                password = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines)
            } catch {
                throw SettingsError("Cannot read the SMTP password from \(file): check the path and that this user may read it.")
            }
        }
        let defaultPort =
            switch security {
            case .startTLS: 587
            case .tls: 465
            case .none: 25
            }
        let username = settings.string("smtp_username")
        let smtp = SMTPSettings(
            host: host,
            port: settings.int("smtp_port", default: defaultPort),
            security: security,
            username: username,
            password: username == nil ? nil : password,
            sender: sender,
            trustedCertificatesFile: settings.string("smtp_ca_file")
        )
        if let problem = smtp.problem { throw SettingsError(problem) }
        return smtp
    }

    /// `--print-config`: one line per setting, `key = value  # source`, secrets masked.
    static func report(_ entries: [ServeSettings.Entry]) -> String {
        let width = entries.map(\.key.count).max() ?? 0
        return entries.map { entry in
            let value = entry.isSecret ? masked(entry) : entry.value
            return entry.key.padding(toLength: width, withPad: " ", startingAt: 0) + " = " + value + "  # " + entry.source
        }.joined(separator: "\n")
    }

    /// A secret as `--print-config` shows it: a database URL keeps all but its password (an SQLite
    /// path is no secret); anything else is only said to be set.
    static func masked(_ entry: ServeSettings.Entry) -> String {
        let value = entry.value
        guard value != "(none)" else { return value }
        if let match = value.firstMatch(of: /^([a-z]+:\/\/[^:\/@]+):[^@]*@/) {
            return value.replacingCharacters(in: match.range, with: match.1 + ":••••@")
        }
        return entry.key == "database" ? value : "•••• (set)"
    }

    /// Logs each `KINSHIP_…` variable that names no setting: a typo would otherwise be ignored.
    static func warnAboutUnknownVariables(in environment: [String: String], logger: Logger) {
        let known = Set(ServeCommand.settingKeys.map { "KINSHIP_" + $0.uppercased() } + ["KINSHIP_CONFIG"])
        for name in environment.keys.sorted()
        where name.hasPrefix("KINSHIP_") && !known.contains(name)
            && !name.hasPrefix("KINSHIP_TEST_") && !name.hasPrefix("KINSHIP_E2E_")
        {
            logger.warning("\(name) names no setting and is ignored; `kinship serve --help` lists them", metadata: ["variable": "\(name)"])
        }
    }
}
