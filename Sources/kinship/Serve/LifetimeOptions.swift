import ArgumentParser

/// How long `kinship serve`'s codes, tokens and sessions live, in seconds. Each is also
/// `KINSHIP_…` in the environment and a key of the config file.
struct LifetimeOptions: ParsableArguments {
    @Option(name: .customLong("code-lifetime"), help: "An authorization code's wait for its exchange (default: 300).")
    var codeLifetime: Int?
    @Option(name: .customLong("token-lifetime"), help: "An access token from a login (default: 7200).")
    var tokenLifetime: Int?
    @Option(name: .customLong("long-token-lifetime"), help: "An access token from fb_exchange_token (default: 5184000, 60 days).")
    var longTokenLifetime: Int?
    @Option(name: .customLong("refresh-token-lifetime"), help: "A refresh token left unused (default: 7776000, 90 days).")
    var refreshTokenLifetime: Int?
    @Option(
        name: .customLong("refresh-reuse-grace"),
        help: "After a refresh token's rotation, how long reusing it counts as a race, not a theft (default: 5)."
    )
    var refreshReuseGrace: Int?
    @Option(name: .customLong("id-token-lifetime"), help: "An OpenID Connect id_token (default: 3600).")
    var idTokenLifetime: Int?
    @Option(name: .customLong("session-lifetime"), help: "A browser's login to the dialog and the account pages (default: 2592000, 30 days).")
    var sessionLifetime: Int?
    @Option(name: .customLong("device-code-lifetime"), help: "A device login's wait for the person (default: 600).")
    var deviceCodeLifetime: Int?
    @Option(name: .customLong("device-poll-interval"), help: "The least time between a device's polls (default: 5).")
    var devicePollInterval: Int?
    @Option(name: .customLong("reset-link-lifetime"), help: "A mailed password reset link (default: 1800).")
    var resetLinkLifetime: Int?
}
