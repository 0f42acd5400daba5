import KinshipCore

/// Runs Graph calls and does what each ``GraphError/Category`` calls for.
///
/// - transient: retried up to ``maxTransientRetries`` times, with exponential backoff and jitter;
/// - permission: the missing permission is asked for once (`auth_type=rerequest`) and, if the
///   person grants it, the call is retried;
/// - recoverable: the token is renewed with its refresh token and the call retried once; when the
///   platform refuses the renewal too, the session is closed and its token forgotten, so the app
///   logs in again (the platform's reason stays in ``Session/closeReason``);
/// - throttled and other: thrown as they are (retrying would not help).
public struct GraphRecovery: Sendable {
    /// The client calls are made with.
    public let graph: GraphClient
    /// The login manager that refreshes, asks for permissions and logs in again.
    public let loginManager: LoginManager
    /// How many times a transient failure is retried.
    public var maxTransientRetries: Int
    /// The pause before the first retry; each further retry waits twice as long.
    public var initialBackoff: Duration
    /// Whether a missing permission is asked for; when `false`, permission errors are thrown.
    public var asksForMissingPermissions = true

    /// A recovery for calls through `graph`, with `loginManager` for what needs the person.
    ///
    /// - Parameters:
    ///   - graph: The client to call with.
    ///   - loginManager: The login manager that owns the session `graph` uses.
    ///   - maxTransientRetries: How many times a transient failure is retried.
    ///   - initialBackoff: The wait before the first retry; each later one waits twice as long.
    public init(graph: GraphClient, loginManager: LoginManager, maxTransientRetries: Int = 3, initialBackoff: Duration = .milliseconds(200)) {
        self.graph = graph
        self.loginManager = loginManager
        self.maxTransientRetries = maxTransientRetries
        self.initialBackoff = initialBackoff
    }

    /// Runs `call`, recovering as described above. Throws the ``GraphError`` that could not be
    /// recovered from, or the ``LoginError`` of a permission request that failed.
    public func perform<Result: Sendable>(_ call: @Sendable (GraphClient) async throws(GraphError) -> Result) async throws -> Result {
        var retries = 0
        var asked: Set<Permission> = []
        var renewed = false
        while true {
            let token = await graph.currentToken()
            do {
                return try await call(graph)
            } catch {
                switch error.category {
                case .transient where retries < maxTransientRetries:
                    try await Task.sleep(for: backoff(before: retries))
                    retries += 1
                case .permission:
                    guard asksForMissingPermissions, let permission = error.missingPermission, asked.insert(permission).inserted else { throw error }
                    let result = try await loginManager.requestPermissions([permission], authType: .rerequest)
                    guard result.token?.hasGranted(permission) == true else { throw error }
                case .recoverable:
                    if !renewed, let token {
                        renewed = true
                        if try await renew(token) { continue }
                    }
                    await loginManager.logOut()
                    throw error
                case .transient, .throttled, .other:
                    throw error
                }
            }
        }
    }

    /// Whether the rejected `token` was renewed. A login the platform ended is not (the session has
    /// closed, keeping the reason); a platform out of reach throws, leaving the session as it is.
    private func renew(_ token: AccessToken) async throws(GraphError) -> Bool {
        do {
            return try await loginManager.renew(rejected: token) != nil
        } catch  where error.category == .recoverable {
            return false
        }
    }

    /// `initialBackoff × 2^attempt`, between half and all of it (full jitter would allow zero).
    private func backoff(before attempt: Int) -> Duration {
        let full = initialBackoff * (1 << min(attempt, 16))
        return full * Double.random(in: 0.5...1)
    }
}
