import ArgumentParser

/// `kinship serve`'s limits. Each is also `KINSHIP_…` in the environment and a key of the config file.
struct LimitOptions: ParsableArguments {
    @Option(
        name: .customLong("graph-calls-per-user"),
        help: "Graph calls one person may make through one app per minute, then error 17 (default: 6000)."
    )
    var graphCallsPerUser: Int?
    @Option(name: .customLong("graph-calls-per-app"), help: "Graph calls one app may make per minute, then error 4 (default: 600000).")
    var graphCallsPerApp: Int?
    @Option(
        name: .customLong("failed-logins-per-account"),
        help: "Password attempts one account may fail per login window before it must wait; attempts being checked count too (default: 5)."
    )
    var failedLoginsPerAccount: Int?
    @Option(
        name: .customLong("failed-logins-per-address"),
        help: "Password attempts one address may fail per login window before it must wait (default: 20)."
    )
    var failedLoginsPerAddress: Int?
    @Option(name: .customLong("login-window"), help: "Seconds failed password attempts are counted for (default: 900).")
    var loginWindow: Int?
    @Option(name: .customLong("signups-per-address"), help: "Sign-up forms one address may submit per minute, then 429 (default: 10).")
    var signupsPerAddress: Int?
    @Option(name: .customLong("token-cache-requests-per-minute"), help: "Remote token cache requests one address may make per minute (default: 120).")
    var tokenCacheRequestsPerMinute: Int?
    @Option(name: .customLong("device-starts-per-address"), help: "Device logins one address may start per minute (default: 30).")
    var deviceStartsPerAddress: Int?
    @Option(
        name: .customLong("device-entries-per-window"),
        help: "Codes one address or person may type on /device per device entry window (default: 10)."
    )
    var deviceEntriesPerWindow: Int?
    @Option(name: .customLong("device-entry-window"), help: "Seconds the codes typed on /device are counted for (default: 900).")
    var deviceEntryWindow: Int?
    @Option(name: .customLong("reset-links-per-account"), help: "Password reset links mailed per account per hour (default: 3).")
    var resetLinksPerAccount: Int?
    @Option(name: .customLong("reset-forms-per-address"), help: "\"Forgot your password?\" forms one address may send per hour (default: 20).")
    var resetFormsPerAddress: Int?
    @Option(name: .customLong("bcrypt-cost"), help: "bcrypt's work factor for new passwords, 4 to 16; lower it only for tests (default: 12).")
    var bcryptCost: Int?
    @Option(name: .customLong("max-form-bytes"), help: "The largest form body accepted, in bytes (default: 16384).")
    var maxFormBytes: Int?
}
