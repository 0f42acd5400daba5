import KinshipCore

/// What a finished login leaves for the app to exchange once: an authorization code or an approved
/// device code, by the hash the database keeps.
enum OneTimeGrant: Sendable {
    case code(hash: String)
    case deviceCode(hash: String)

    /// The hash the tokens it earns remember, so a replayed code can revoke them.
    var hash: String {
        switch self {
        case .code(let hash), .deviceCode(let hash): hash
        }
    }
}

/// Exchanges one-time grants for tokens, each in one write transaction: the grant is spent, the
/// login it belongs to is read, and the tokens it earns are stored together. So a grant is spent
/// exactly when its tokens exist (a failure half-way leaves both as they were), the login cannot be
/// revoked between its check and its tokens, and an exchange takes one turn at the writer.
struct RedemptionStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// An exchange: the grant, the login it was issued for, and what the tokens come with.
    struct Request: Sendable {
        let grant: OneTimeGrant
        let authorizationID: String
        let login: CodeLogin
        /// Whether a refresh token comes with the access token (public apps, `offline_access`).
        let refreshes: Bool
        /// Whether the person's record is read, for an id_token.
        let readsPerson: Bool
        let lifetimes: RefreshTokenStore.Lifetimes
    }

    /// The tokens a spent grant earned (shown once: the database keeps their hashes).
    struct Redeemed: Sendable {
        let authorization: Authorization
        let accessToken: String
        let refreshToken: String?
        /// The person, when the request asked for their record.
        let person: UserRecord?
    }

    /// How an exchange ended.
    enum Outcome: Sendable {
        case redeemed(Redeemed)
        /// Another exchange spent the grant first; nothing was stored.
        case alreadySpent
        /// The person removed the app, or their account, after the grant was issued. The grant is
        /// spent; no token was stored.
        case loginGone
    }

    /// Spends the grant and stores its tokens, or answers why not.
    func redeem(_ request: Request) async throws -> Outcome {
        let now = clock.now
        return try await database.writeTokens { tables in try await Self.redeem(request, now: now, in: tables) }
    }

    /// Exchanges the authorization code whose hash is `codeHash`, reading it in the same write
    /// transaction that spends it: `accept` checks the stored code against the exchange and
    /// says what its tokens come with, or throws to refuse it (nothing is written then). The
    /// stored code and how the exchange ended, or `nil` when no code has that hash. One turn at
    /// the writer, and no read before it.
    func redeemCode(
        hash codeHash: String,
        _ accept: @escaping @Sendable (AuthorizationCodeRecord) throws -> Request
    ) async throws -> (record: AuthorizationCodeRecord, outcome: Outcome)? {
        let now = clock.now
        return try await database.writeTokens { tables in
            guard let record = try await tables.code(hash: codeHash) else { return nil }
            return (record, try await Self.redeem(try accept(record), now: now, in: tables))
        }
    }

    private static func redeem(_ request: Request, now: Int, in tables: any TokenTables) async throws -> Outcome {
        let family = request.refreshes ? RefreshTokenStore.newFamily() : nil
        let spent =
            switch request.grant {
            case .code(let hash): try await tables.spendCode(hash: hash, refreshFamily: family, now: now)
            case .deviceCode(let hash): try await tables.spendDeviceCode(hash: hash)
            }
        guard spent else { return .alreadySpent }
        guard let authorization = try await tables.authorization(id: request.authorizationID),
            authorization.revokedAt == nil
        else { return .loginGone }
        var person: UserRecord?
        if request.readsPerson {
            guard let user = try await tables.person(id: authorization.userID) else { return .loginGone }
            person = user
        }
        if let family {
            let pair = try await RefreshTokenStore.startFamily(
                family,
                .init(authorization: authorization, requestedScope: request.login.requested, authTime: request.login.authTime),
                codeHash: request.grant.hash,
                lifetimes: request.lifetimes,
                now: now,
                in: tables
            )
            return .redeemed(
                .init(authorization: authorization, accessToken: pair.accessToken, refreshToken: pair.refreshToken, person: person)
            )
        }
        let (accessToken, record) = AccessTokenRecord.make(
            for: authorization,
            lifetime: .short,
            seconds: request.lifetimes.accessToken,
            codeHash: request.grant.hash,
            refreshFamily: nil,
            now: now
        )
        try await tables.insert(record)
        return .redeemed(.init(authorization: authorization, accessToken: accessToken, refreshToken: nil, person: person))
    }
}
