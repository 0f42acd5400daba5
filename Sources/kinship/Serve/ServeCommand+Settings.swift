import Configuration
import KinshipServer
import Logging

extension ServeCommand {
    /// Every setting's name: an option's name with `_` for `-` (`graph_calls_per_user`), also the
    /// config file's key and, upper-cased after `KINSHIP_`, the environment variable.
    static let settingKeys: Set<String> = [
        "database", "host", "port", "public_url", "secret_file", "demo", "sample_app", "log_level", "thread_scheduling",
        "graph_calls_per_user", "graph_calls_per_app", "failed_logins_per_account", "failed_logins_per_address", "login_window",
        "signups_per_address", "token_cache_requests_per_minute", "device_starts_per_address", "device_entries_per_window",
        "device_entry_window", "reset_links_per_account", "reset_forms_per_address", "bcrypt_cost", "max_form_bytes",
        "code_lifetime", "token_lifetime", "long_token_lifetime", "refresh_token_lifetime", "refresh_reuse_grace", "id_token_lifetime",
        "session_lifetime", "device_code_lifetime", "device_poll_interval", "reset_link_lifetime",
        "idle_timeout", "max_connections", "trusted_proxy", "metrics_port", "metrics_host", "callback_poll_interval",
        "callback_timeout", "callback_batch_size",
        "smtp_host", "smtp_port", "smtp_security", "smtp_username", "smtp_password", "smtp_password_file", "mail_from", "smtp_ca_file",
        "chat", "chat_domain", "chat_port", "chat_host", "chat_folder", "explain_queries",
    ]

    /// The settings given on the command line, by key.
    @available(macOS 15, iOS 18, *)
    func flagValues() -> [String: ConfigValue] {
        var values: [String: ConfigValue] = [:]
        func set(_ key: String, _ value: String?) {
            if let value { values[key] = ConfigValue(.string(value), isSecret: ServeSettings.secretKeys.contains(key)) }
        }
        func set(_ key: String, _ value: Int?) { if let value { values[key] = ConfigValue(.int(value), isSecret: false) } }
        func set(_ key: String, _ value: Double?) { if let value { values[key] = ConfigValue(.double(value), isSecret: false) } }
        set("database", storage.database)
        set("host", host)
        set("port", port)
        set("public_url", publicURL)
        set("secret_file", secretFile)
        if demo { values["demo"] = ConfigValue(.bool(true), isSecret: false) }
        if withoutSampleApp { values["sample_app"] = ConfigValue(.bool(false), isSecret: false) }
        set("log_level", logLevel?.rawValue)
        set("thread_scheduling", threadScheduling?.rawValue)
        set("graph_calls_per_user", limits.graphCallsPerUser)
        set("graph_calls_per_app", limits.graphCallsPerApp)
        set("failed_logins_per_account", limits.failedLoginsPerAccount)
        set("failed_logins_per_address", limits.failedLoginsPerAddress)
        set("login_window", limits.loginWindow)
        set("signups_per_address", limits.signupsPerAddress)
        set("token_cache_requests_per_minute", limits.tokenCacheRequestsPerMinute)
        set("device_starts_per_address", limits.deviceStartsPerAddress)
        set("device_entries_per_window", limits.deviceEntriesPerWindow)
        set("device_entry_window", limits.deviceEntryWindow)
        set("reset_links_per_account", limits.resetLinksPerAccount)
        set("reset_forms_per_address", limits.resetFormsPerAddress)
        set("bcrypt_cost", limits.bcryptCost)
        set("max_form_bytes", limits.maxFormBytes)
        set("code_lifetime", lifetimes.codeLifetime)
        set("token_lifetime", lifetimes.tokenLifetime)
        set("long_token_lifetime", lifetimes.longTokenLifetime)
        set("refresh_token_lifetime", lifetimes.refreshTokenLifetime)
        set("refresh_reuse_grace", lifetimes.refreshReuseGrace)
        set("id_token_lifetime", lifetimes.idTokenLifetime)
        set("session_lifetime", lifetimes.sessionLifetime)
        set("device_code_lifetime", lifetimes.deviceCodeLifetime)
        set("device_poll_interval", lifetimes.devicePollInterval)
        set("reset_link_lifetime", lifetimes.resetLinkLifetime)
        set("idle_timeout", connections.idleTimeout)
        set("max_connections", connections.maxConnections)
        if !connections.trustedProxies.isEmpty {
            values["trusted_proxy"] = ConfigValue(.stringArray(connections.trustedProxies), isSecret: false)
        }
        set("metrics_port", connections.metricsPort)
        set("metrics_host", connections.metricsHost)
        set("callback_poll_interval", connections.callbackPollInterval)
        set("callback_timeout", connections.callbackTimeout)
        set("callback_batch_size", connections.callbackBatchSize)
        set("smtp_host", mail.host)
        set("smtp_port", mail.port)
        set("smtp_security", mail.security?.rawValue)
        set("smtp_username", mail.username)
        set("smtp_password_file", mail.passwordFile)
        set("mail_from", mail.sender)
        set("smtp_ca_file", mail.certificatesFile)
        if chat.chat { values["chat"] = ConfigValue(.bool(true), isSecret: false) }
        set("chat_domain", chat.chatDomain)
        set("chat_port", chat.chatPort)
        set("chat_host", chat.chatHost)
        set("chat_folder", chat.chatFolder)
        set("explain_queries", explainQueries)
        return values
    }
}
