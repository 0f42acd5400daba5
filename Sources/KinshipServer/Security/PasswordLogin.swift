import Hummingbird
import Logging

/// Checks a login and password the way every login form must: throttled per account and per
/// address, the same bcrypt work whether or not the account exists, and a browser session on success.
struct PasswordLogin: Sendable {
    /// What a login attempt came to.
    enum Outcome: Sendable {
        /// The password was right: the person and the new session's cookie value.
        case loggedIn(UserRecord, session: String)
        /// Too many failures lately; try again after this many seconds.
        case throttled(retryAfter: Int)
        /// Unknown account or wrong password (deliberately not told apart).
        case refused
    }

    let platform: Platform
    let throttle: LoginThrottle
    let sessionLifetime: Int
    /// A bcrypt hash checked when the login names no account, so that a wrong login and a wrong
    /// password take the same time.
    let decoyPasswordHash: String

    /// Tries `password` for the account `login` names (an email or a username).
    func attempt(login: String, password: String, address: String, logger: Logger) async throws -> Outcome {
        if let retryAfter = try await throttle.retryAfter(account: login, address: address) {
            logger.notice("Login refused: too many failures", metadata: ["login.address": "\(address)"])
            return .throttled(retryAfter: retryAfter)
        }
        let user = try await platform.users.find(login: login)
        let passwordMatches: Bool
        if let user {
            passwordMatches = try await platform.users.verifyPassword(password, of: user)
        } else {
            _ = try await PasswordHasher().verify(password, against: decoyPasswordHash)
            passwordMatches = false
        }
        guard let user, passwordMatches else {
            try await throttle.recordFailure(account: login, address: address)
            logger.info("Login failed", metadata: ["login.known_account": "\(user != nil)", "login.address": "\(address)"])
            return .refused
        }
        try await throttle.clear(account: login)
        return .loggedIn(user, session: try await platform.browserSessions.start(userID: user.id, lifetime: sessionLifetime))
    }

    /// "1 minute", "3 minutes": how long a throttled person waits.
    static func minutes(_ seconds: Int) -> String {
        let minutes = (seconds + 59) / 60
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }

    /// What a login form typed is taken to mean: trimmed at the front, lowercased, bounded.
    static func normalizedLogin(_ typed: String?) -> String {
        String((typed ?? "").trimmingPrefix(while: \.isWhitespace).prefix(254)).lowercased()
    }
}
