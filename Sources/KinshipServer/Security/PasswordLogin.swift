import HTTPTypes
import Hummingbird
import Logging

/// Checks a login and password the way every login form must: throttled per account and per
/// address, the same bcrypt work whether or not the account exists, and a browser session on success.
struct PasswordLogin: Sendable {
    /// What a login attempt came to.
    enum Outcome: Sendable {
        /// The password was right: the person and the new session's cookie value.
        case loggedIn(UserRecord, session: String)
        /// Not let in; the form is shown again with the refusal's message.
        case refused(Refusal)
    }

    /// Why a login form is shown again, said the same way on every login form.
    struct Refusal: Sendable {
        let message: String
        let status: HTTPResponse.Status
        /// Seconds to wait, when too many attempts failed lately.
        let retryAfter: Int?

        /// Unknown account or wrong password (deliberately not told apart).
        static let wrongLogin = Refusal(message: "The email, username or password is not right.", status: .unauthorized, retryAfter: nil)

        /// The password was right, but an administrator suspended the account.
        static let suspended = Refusal(
            message: "This account is suspended, so it cannot log in. Ask the people who run this platform.",
            status: .forbidden,
            retryAfter: nil
        )

        /// A logged-in person's password, asked for again before a change, is not right.
        static let wrongCurrentPassword = Refusal(message: "That is not your current password.", status: .unauthorized, retryAfter: nil)

        static func throttled(retryAfter seconds: Int) -> Refusal {
            let minutes = (seconds + 59) / 60
            return Refusal(
                message: "Too many failed attempts. Try again in \(minutes == 1 ? "1 minute" : "\(minutes) minutes").",
                status: .tooManyRequests,
                retryAfter: seconds
            )
        }

        /// The form page with the `Retry-After` header a throttled attempt carries.
        func marking(_ page: Response) -> Response {
            var page = page
            if let retryAfter { page.headers[.retryAfter] = String(retryAfter) }
            return page
        }
    }

    let platform: Platform
    let metrics: ServerMetrics
    let throttle: LoginThrottle
    let sessionLifetime: Int
    /// A bcrypt hash checked when the login names no account, so that a wrong login and a wrong
    /// password take the same time.
    let decoyPasswordHash: String

    /// Tries `password` for the account `login` names (an email or a username), from `origin`.
    ///
    /// The attempt is counted against the limits before the password is checked, so parallel
    /// attempts get no more checks than the limit allows.
    func attempt(login: String, password: String, origin: BrowserSessionStore.Origin, logger: Logger) async throws -> Outcome {
        let address = origin.address
        let reservation: LoginThrottle.Reservation
        switch try await throttle.admit(account: login, address: address) {
        case .refused(let retryAfter):
            logger.notice("Login refused: too many failures", metadata: ["login.address": "\(address)"])
            metrics.login(.throttled)
            return .refused(.throttled(retryAfter: retryAfter))
        case .admitted(let admitted):
            reservation = admitted
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
            try await throttle.recordFailure(reservation)
            logger.info("Login failed", metadata: ["login.known_account": "\(user != nil)", "login.address": "\(address)"])
            metrics.login(.wrongPassword)
            return .refused(.wrongLogin)
        }
        try await throttle.recordSuccess(reservation)
        // Told only to someone who knows the password, so a guess learns nothing from it.
        guard user.suspendedAt == nil else {
            logger.notice("Login refused: the account is suspended", metadata: ["user.id": "\(user.id)"])
            metrics.login(.suspended)
            return .refused(.suspended)
        }
        metrics.login(.ok)
        return .loggedIn(user, session: try await platform.browserSessions.start(userID: user.id, lifetime: sessionLifetime, from: origin))
    }

    /// Checks the password of a person already logged in, before a change that needs it (a new
    /// password, deleting the account), under the same limits as a login: a stolen session cannot
    /// be used to guess the password any faster than the login form allows.
    ///
    /// - Returns: `nil` when the password is right, or why it is refused.
    func confirm(_ password: String, of user: UserRecord, address: String, logger: Logger) async throws -> Refusal? {
        switch try await throttle.admit(account: user.email, address: address) {
        case .refused(let retryAfter):
            logger.notice("Password confirmation refused: too many failures", metadata: ["user.id": "\(user.id)"])
            return .throttled(retryAfter: retryAfter)
        case .admitted(let reservation):
            guard try await platform.users.verifyPassword(password, of: user) else {
                try await throttle.recordFailure(reservation)
                logger.info("Password confirmation failed", metadata: ["user.id": "\(user.id)"])
                return .wrongCurrentPassword
            }
            try await throttle.recordSuccess(reservation)
            return nil
        }
    }

    /// What a login form typed is taken to mean: trimmed at the front, lowercased, bounded.
    static func normalizedLogin(_ typed: String?) -> String {
        String((typed ?? "").trimmingPrefix(while: \.isWhitespace).prefix(254)).lowercased()
    }
}
