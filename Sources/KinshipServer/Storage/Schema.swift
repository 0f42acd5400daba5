import SQLKit

/// Kinship's schema, oldest step first. Append new steps; never edit an applied one.
///
/// Conventions: ids are text, times are Unix seconds in BIGINT columns, secrets are stored only as
/// SHA-256 hex (`*_hash` columns) or bcrypt (`password_hash`), and "revoked" is a nullable time.
enum Schema {
    static let migrations: [Migration] = [
        Migration(version: 1, name: "accounts, apps, dialog sessions and tokens") { _ in
            [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    first_name TEXT,
                    middle_name TEXT,
                    last_name TEXT,
                    username TEXT UNIQUE,
                    email TEXT NOT NULL UNIQUE,
                    password_hash TEXT NOT NULL,
                    gender TEXT,
                    locale TEXT,
                    birthday TEXT,
                    password_changed_at BIGINT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE apps (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    secret_hash TEXT NOT NULL,
                    is_confidential INTEGER NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE app_redirect_uris (
                    app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
                    uri TEXT NOT NULL,
                    PRIMARY KEY (app_id, uri)
                )
                """,
                """
                CREATE TABLE friendships (
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    friend_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, friend_id)
                )
                """,
                """
                CREATE TABLE authorizations (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """,
                "CREATE UNIQUE INDEX authorizations_active ON authorizations (user_id, app_id) WHERE revoked_at IS NULL",
                """
                CREATE TABLE authorization_permissions (
                    authorization_id TEXT NOT NULL REFERENCES authorizations(id) ON DELETE CASCADE,
                    permission TEXT NOT NULL,
                    status TEXT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    PRIMARY KEY (authorization_id, permission)
                )
                """,
                """
                CREATE TABLE authorization_codes (
                    code_hash TEXT PRIMARY KEY,
                    authorization_id TEXT NOT NULL REFERENCES authorizations(id) ON DELETE CASCADE,
                    app_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    redirect_uri TEXT NOT NULL,
                    code_challenge TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT
                )
                """,
                """
                CREATE TABLE access_tokens (
                    token_hash TEXT PRIMARY KEY,
                    authorization_id TEXT NOT NULL REFERENCES authorizations(id) ON DELETE CASCADE,
                    app_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    lifetime TEXT NOT NULL,
                    code_hash TEXT,
                    issued_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX access_tokens_by_code ON access_tokens (code_hash)",
                "CREATE INDEX access_tokens_by_authorization ON access_tokens (authorization_id)",
                """
                CREATE TABLE browser_sessions (
                    id_hash TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE login_failures (
                    id TEXT PRIMARY KEY,
                    subject TEXT NOT NULL,
                    failed_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX login_failures_by_subject ON login_failures (subject, failed_at)",
                """
                CREATE TABLE server_keys (
                    name TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                )
                """,
            ]
        },
        Migration(version: 2, name: "profile places, pictures and posts") { engine in
            [
                "ALTER TABLE users ADD COLUMN hometown TEXT",
                "ALTER TABLE users ADD COLUMN location TEXT",
                """
                CREATE TABLE pictures (
                    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    content_type TEXT NOT NULL,
                    width INTEGER NOT NULL,
                    height INTEGER NOT NULL,
                    data \(engine == .postgres ? "BYTEA" : "BLOB") NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE posts (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    app_id TEXT NOT NULL,
                    message TEXT NOT NULL,
                    link TEXT,
                    created_at BIGINT NOT NULL,
                    sequence BIGINT NOT NULL
                )
                """,
                "CREATE INDEX posts_by_user ON posts (user_id, sequence)",
            ]
        },
        Migration(version: 3, name: "remote token cache") { engine in
            [
                """
                CREATE TABLE token_cache_entries (
                    key_hash TEXT PRIMARY KEY,
                    ciphertext \(engine == .postgres ? "BYTEA" : "BLOB") NOT NULL,
                    expires_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX token_cache_entries_by_expiry ON token_cache_entries (expires_at)",
            ]
        },
        Migration(version: 4, name: "friend requests") { _ in
            [
                """
                CREATE TABLE friend_requests (
                    from_user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    to_user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (from_user_id, to_user_id)
                )
                """,
                "CREATE INDEX friend_requests_to ON friend_requests (to_user_id, created_at)",
            ]
        },
        Migration(version: 5, name: "atomic limits, server keys out of the database, finding people by email") { _ in
            [
                // A login attempt is counted when it starts, before its password is checked, so that
                // parallel attempts cannot all pass the limit. `settled` is 0 while the check runs.
                """
                CREATE TABLE login_attempts (
                    id TEXT PRIMARY KEY,
                    subject TEXT NOT NULL,
                    started_at BIGINT NOT NULL,
                    settled INTEGER NOT NULL
                )
                """,
                "CREATE INDEX login_attempts_by_subject ON login_attempts (subject, started_at)",
                "DROP TABLE login_failures",
                """
                CREATE TABLE rate_counters (
                    subject TEXT NOT NULL,
                    window_start BIGINT NOT NULL,
                    hits INTEGER NOT NULL,
                    PRIMARY KEY (subject, window_start)
                )
                """,
                "CREATE INDEX rate_counters_by_window ON rate_counters (window_start)",
                // The CSRF key and the sample app's secret are derived from the server secret now.
                "DROP TABLE server_keys",
                "ALTER TABLE users ADD COLUMN findable_by_email INTEGER NOT NULL DEFAULT 0",
            ]
        },
        Migration(version: 6, name: "OpenID Connect: id_token signing keys, the login a code carries") { _ in
            [
                // What the id_token of a code's exchange needs: the app's nonce, the scope it asked
                // for (`openid`, `profile`), and when the person last typed their password (the
                // start of their browser session: OpenID's auth_time).
                "ALTER TABLE authorization_codes ADD COLUMN nonce TEXT",
                "ALTER TABLE authorization_codes ADD COLUMN requested_scope TEXT",
                "ALTER TABLE authorization_codes ADD COLUMN auth_time BIGINT",
                // Signing keys: the private key sealed with a key derived from the server secret.
                // A key signs from `activates_at` until `retired_at`, and is published from its
                // creation until every id_token it signed has expired.
                """
                CREATE TABLE signing_keys (
                    kid TEXT PRIMARY KEY,
                    algorithm TEXT NOT NULL,
                    sealed_private_key TEXT NOT NULL,
                    public_jwk TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    activates_at BIGINT NOT NULL,
                    retired_at BIGINT
                )
                """,
            ]
        },
        Migration(version: 7, name: "refresh tokens") { _ in
            [
                // A family is one login's chain of refresh tokens: each use rotates to a new one, and
                // a reused (already rotated) token revokes the family and its access tokens.
                """
                CREATE TABLE refresh_tokens (
                    token_hash TEXT PRIMARY KEY,
                    family_id TEXT NOT NULL,
                    authorization_id TEXT NOT NULL REFERENCES authorizations(id) ON DELETE CASCADE,
                    app_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    requested_scope TEXT,
                    auth_time BIGINT,
                    issued_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    rotated_at BIGINT,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX refresh_tokens_by_family ON refresh_tokens (family_id)",
                "ALTER TABLE access_tokens ADD COLUMN refresh_family_id TEXT",
                "CREATE INDEX access_tokens_by_refresh_family ON access_tokens (refresh_family_id)",
            ]
        },
        Migration(version: 8, name: "device login (RFC 8628)") { _ in
            [
                // A device's login: the device polls with the device code (kept hashed); the person
                // types the user code on /device. `status` goes pending → approved → used, or
                // pending → denied; `poll_interval` grows by 5 s at each slow_down.
                """
                CREATE TABLE device_codes (
                    device_code_hash TEXT PRIMARY KEY,
                    user_code TEXT NOT NULL,
                    app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
                    requested_scope TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    poll_interval INTEGER NOT NULL,
                    last_polled_at BIGINT,
                    status TEXT NOT NULL,
                    user_id TEXT,
                    authorization_id TEXT,
                    auth_time BIGINT
                )
                """,
                "CREATE UNIQUE INDEX device_codes_by_user_code ON device_codes (user_code)",
            ]
        },
        Migration(version: 9, name: "app callbacks (deauthorize, data deletion) and their outbox") { _ in
            [
                // The signing secret signs the callbacks' signed_request; it is sealed with a key from
                // the server secret (see SecretSeal), since the app must be able to check it.
                "ALTER TABLE apps ADD COLUMN deauthorize_callback_url TEXT",
                "ALTER TABLE apps ADD COLUMN data_deletion_callback_url TEXT",
                "ALTER TABLE apps ADD COLUMN sealed_signing_secret TEXT",
                // One callback to deliver: written in the transaction that causes it, delivered by
                // whichever server process claims it first (`claimed_by` until `claimed_until`),
                // retried with backoff until `give_up_at`.
                """
                CREATE TABLE callback_deliveries (
                    id TEXT PRIMARY KEY,
                    app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    url TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    give_up_at BIGINT NOT NULL,
                    next_attempt_at BIGINT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    claimed_by TEXT,
                    claimed_until BIGINT,
                    delivered_at BIGINT,
                    failed_at BIGINT,
                    last_status INTEGER,
                    last_error TEXT,
                    status_url TEXT,
                    confirmation_code TEXT
                )
                """,
                "CREATE INDEX callback_deliveries_due ON callback_deliveries (next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL",
                "CREATE INDEX callback_deliveries_by_app ON callback_deliveries (app_id, created_at)",
            ]
        },
        Migration(version: 10, name: "account security: where a browser is logged in, password reset links") { _ in
            [
                // Shown on the security page so a person can tell their sessions apart and end one.
                "ALTER TABLE browser_sessions ADD COLUMN client_address TEXT",
                "ALTER TABLE browser_sessions ADD COLUMN user_agent TEXT",
                "CREATE INDEX browser_sessions_by_user ON browser_sessions (user_id, created_at)",
                // A reset link sent by email: single-use (`used_at`), short-lived, only its hash kept.
                """
                CREATE TABLE password_resets (
                    token_hash TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT
                )
                """,
                "CREATE INDEX password_resets_by_user ON password_resets (user_id)",
            ]
        },
        Migration(version: 11, name: "developer pages and administrators: app owners, secret rotation, suspension") { _ in
            [
                // Who made an app on /developers (NULL for apps made with `kinship apps create`, and
                // for apps whose owner deleted their account: administrators look after those).
                "ALTER TABLE apps ADD COLUMN owner_id TEXT REFERENCES users(id) ON DELETE SET NULL",
                "CREATE INDEX apps_by_owner ON apps (owner_id)",
                // After a rotation the old secret keeps working until `previous_secret_expires_at`.
                "ALTER TABLE apps ADD COLUMN previous_secret_hash TEXT",
                "ALTER TABLE apps ADD COLUMN previous_secret_expires_at BIGINT",
                // Whether the app may ask for publish_actions; apps registered before could.
                "ALTER TABLE apps ADD COLUMN may_publish INTEGER NOT NULL DEFAULT 1",
                "ALTER TABLE users ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE users ADD COLUMN suspended_at BIGINT",
            ]
        },
        Migration(version: 12, name: "Kinship Chat: whether an app may ask for xmpp_login") { _ in
            // Apps registered before, by an operator, could ask for every permission; apps made on
            // /developers ask for chat only when their developer ticks it.
            ["ALTER TABLE apps ADD COLUMN may_chat INTEGER NOT NULL DEFAULT 1"]
        },
        Migration(version: 13, name: "Kinship Chat: whose friend list changed, for the chat server's rosters") { _ in
            [
                // One row per person whose roster changed; the chat server follows the ids in order
                // (they are handed out one transaction at a time) and refetches those rosters.
                """
                CREATE TABLE chat_roster_changes (
                    id BIGINT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    changed_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX chat_roster_changes_by_time ON chat_roster_changes (changed_at)",
            ]
        },
        Migration(
            version: 14,
            name: "finding people by the words of their names",
            afterwards: { sql in
                let people = try await sql.raw("SELECT id, name FROM users").all().map {
                    (id: try $0.decode(column: "id", as: String.self), name: try $0.decode(column: "name", as: String.self))
                }
                try await PersonSearchTerms.insert(people, in: sql)
            }
        ) { engine in
            [
                // One row per word a person is found by (see PersonSearchTerms); terms compare by
                // their bytes, so a prefix is an index range on both engines.
                """
                CREATE TABLE person_search_terms (
                    term TEXT \(engine == .postgres ? "COLLATE \"C\" " : "")NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    PRIMARY KEY (term, user_id)
                )
                """,
                "CREATE INDEX person_search_terms_by_user ON person_search_terms (user_id)",
            ]
        },
        Migration(version: 15, name: "login attempts cleared by time through an index") { _ in
            // Attempts older than the login window are deleted by their start alone.
            ["CREATE INDEX login_attempts_by_start ON login_attempts (started_at)"]
        },
        Migration(version: 16, name: "a token is written to only the indexes that find it") { _ in
            [
                // A used code names the refresh token family its exchange started: a replay finds
                // the family there (filled in here from the tokens of codes used before).
                "ALTER TABLE authorization_codes ADD COLUMN refresh_family_id TEXT",
                """
                UPDATE authorization_codes SET refresh_family_id = (
                    SELECT MIN(access_tokens.refresh_family_id) FROM access_tokens WHERE access_tokens.code_hash = authorization_codes.code_hash
                ) WHERE used_at IS NOT NULL
                """,
                // So an access token in a family (most of them: every refresh, and every exchange
                // by a native app) is found by its family alone, and one outside a family by its
                // code alone: each is written to one of the two indexes, not both.
                "DROP INDEX access_tokens_by_code",
                "CREATE INDEX access_tokens_by_code ON access_tokens (code_hash) WHERE code_hash IS NOT NULL AND refresh_family_id IS NULL",
                "DROP INDEX access_tokens_by_refresh_family",
                "CREATE INDEX access_tokens_by_refresh_family ON access_tokens (refresh_family_id) WHERE refresh_family_id IS NOT NULL",
            ]
        },
    ]
}
