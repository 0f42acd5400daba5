import Foundation
import KinshipCore
import SQLKit

extension Platform {
    /// Fills an empty database with a generated platform (see ``Population``): people, their
    /// friendships, apps, logins to apps with a token each, and pending friend requests, written
    /// in transactions of many rows, then analyzed so the planner knows the tables' sizes. The
    /// same population and seed make the same platform.
    ///
    /// - Parameter progress: told after each transaction, for a progress line.
    /// - Throws: ``PopulationError/notEmpty(people:)`` when the database has people already;
    ///   ``DatabaseUnavailable`` and the engine's errors.
    public func populate(
        _ population: Population,
        progress: @escaping @Sendable (PopulationProgress) -> Void = { _ in }
    ) async throws -> PopulationReport {
        guard population.people >= 2 else { throw PopulationError.tooFew }
        let existing = try await database.read { sql in
            try await sql.raw("SELECT COUNT(*) AS people FROM users").first(decodingColumn: "people", as: Int.self) ?? 0
        }
        guard existing == 0 else { throw PopulationError.notEmpty(people: existing) }
        let started = ContinuousClock.now
        var generator = SeededGenerator(seed: population.seed)
        let now = clock.now
        let people = (0..<population.people).map { _ in GeneratedName.random(using: &generator) }
        let ids = people.indices.map { String(100_000_000_000_000 + $0) }
        let passwordHash = try await users.passwords.hash(population.password)

        try await inTransactions(step: "people", total: people.count, progress: progress) { sql, range in
            if range.lowerBound == 0 { try await Self.claimEmpty(sql) }
            let rows: [[any Encodable & Sendable]] = range.map { index in
                [ids[index], people[index].name, people[index].firstName, people[index].lastName, Self.email(index), passwordHash, now, now]
            }
            try await Self.insert(
                "users",
                ["id", "name", "first_name", "last_name", "email", "password_hash", "password_changed_at", "created_at"],
                rows,
                in: sql
            )
            try await PersonSearchTerms.insert(range.map { (ids[$0], people[$0].name) }, in: sql)
        }

        let appIDs = (0..<population.apps).map { String(200_000_000_000_000 + $0) }
        let owners = appIDs.indices.map { _ in Int.random(in: 0..<10, using: &generator) == 0 ? nil : ids.randomElement(using: &generator) }
        try await inTransactions(step: "apps", total: appIDs.count, progress: progress) { sql, range in
            try await Self.insert(
                "apps",
                ["id", "name", "secret_hash", "is_confidential", "created_at", "owner_id", "may_publish", "may_chat"],
                range.map { [appIDs[$0], "App \($0 + 1)", Secrets.hash(appIDs[$0]), $0 % 2, now, owners[$0], 0, 0] },
                in: sql
            )
            try await Self.insert(
                "app_redirect_uris",
                ["app_id", "uri"],
                range.map { [appIDs[$0], "https://app\($0 + 1).example.com/callback"] },
                in: sql
            )
        }

        var logins: [(id: String, person: Int, app: Int)] = []
        var permissions: [(login: Int, permission: Permission, granted: Bool)] = []
        for person in people.indices {
            let count = [0, 1, 1, 2, 2, 3].randomElement(using: &generator)!
            // Four people in five use the first app, the platform's own (as most of Facebook used
            // Facebook's): friends lists through it are long enough to page through.
            var apps: Set<Int> = Int.random(in: 0..<5, using: &generator) == 0 ? [] : [0]
            for _ in 0..<count {
                // The first apps are the popular ones.
                apps.insert(min(appIDs.count - 1, Int(Double(appIDs.count) * pow(Double.random(in: 0..<1, using: &generator), 3))))
            }
            for app in apps.sorted() {
                permissions.append((logins.count, .publicProfile, true))
                permissions.append((logins.count, .email, Int.random(in: 0..<5, using: &generator) != 0))
                permissions.append((logins.count, .userFriends, Int.random(in: 0..<10, using: &generator) < 7))
                logins.append((String(300_000_000_000_000 + logins.count), person, app))
            }
        }
        let madeLogins = logins
        let madePermissions = permissions
        try await inTransactions(step: "logins", total: madeLogins.count, progress: progress) { sql, range in
            try await Self.insert(
                "authorizations",
                ["id", "user_id", "app_id", "created_at"],
                range.map { [madeLogins[$0].id, ids[madeLogins[$0].person], appIDs[madeLogins[$0].app], now] },
                in: sql
            )
        }
        try await inTransactions(step: "permissions", total: madePermissions.count, progress: progress) { sql, range in
            try await Self.insert(
                "authorization_permissions",
                ["authorization_id", "permission", "status", "updated_at"],
                range.map { index in
                    let row = madePermissions[index]
                    return [madeLogins[row.login].id, row.permission.rawValue, row.granted ? "granted" : "declined", now]
                },
                in: sql
            )
        }

        // Each login holds a token, as on a platform in use. Their hashes are not hexadecimal, so
        // they are no SHA-256 digest: no token anyone can present matches one.
        let tokenExpiry = now + ServerConfiguration.defaultLongTokenLifetime
        try await inTransactions(step: "tokens", total: madeLogins.count, progress: progress) { sql, range in
            try await Self.insert(
                "access_tokens",
                ["token_hash", "authorization_id", "app_id", "user_id", "lifetime", "issued_at", "expires_at"],
                range.map { index in
                    let login = madeLogins[index]
                    return [
                        Self.populatedTokenHash(login.id), login.id, appIDs[login.app], ids[login.person], TokenLifetime.long.rawValue, now,
                        tokenExpiry,
                    ]
                },
                in: sql
            )
        }

        let graph = FriendGraph.make(
            people: people.count,
            averageFriends: population.averageFriends,
            mostFriends: population.mostFriends,
            using: &generator
        )
        try await inTransactions(step: "friendships", total: graph.directed.count, perTransaction: 100_000, progress: progress) { sql, range in
            try await Self.insert(
                "friendships",
                ["user_id", "friend_id", "created_at"],
                range.map { [ids[Int(graph.directed[$0] >> 32)], ids[Int(graph.directed[$0] & 0xFFFF_FFFF)], now] },
                in: sql
            )
        }

        var requests: [(from: Int, to: Int)] = []
        for person in people.indices where Int.random(in: 0..<50, using: &generator) == 0 {
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let from = Int.random(in: 0..<people.count, using: &generator)
                let pair = UInt64(from) << 32 | UInt64(person)
                guard from != person, !graph.contains(pair), !requests.contains(where: { $0 == (from, person) }) else { continue }
                requests.append((from, person))
            }
        }
        let madeRequests = requests
        try await inTransactions(step: "friend requests", total: madeRequests.count, progress: progress) { sql, range in
            try await Self.insert(
                "friend_requests",
                ["from_user_id", "to_user_id", "created_at"],
                range.map { [ids[madeRequests[$0].from], ids[madeRequests[$0].to], now] },
                in: sql
            )
        }

        progress(PopulationProgress(step: "analyzing", done: 0, total: 1))
        try await database.write { sql in try await sql.raw("ANALYZE").run() }
        progress(PopulationProgress(step: "analyzing", done: 1, total: 1))

        let degrees = graph.degrees
        let typical = degrees.indices.min { abs(degrees[$0] - population.averageFriends) < abs(degrees[$1] - population.averageFriends) }!
        let busiest = degrees.indices.max { degrees[$0] < degrees[$1] }!
        return PopulationReport(
            people: people.count,
            friendships: graph.directed.count / 2,
            apps: appIDs.count,
            logins: madeLogins.count,
            friendRequests: madeRequests.count,
            seconds: Self.seconds(ContinuousClock.now - started),
            probes: [("typical", typical), ("busiest", busiest)].map { role, index in
                PopulationReport.Probe(role: role, id: ids[index], email: Self.email(index), friends: degrees[index])
            }
        )
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The stored hash of a generated login's token: as long as a real one (64 characters), but
    /// with letters no hexadecimal digest has.
    private static func populatedTokenHash(_ loginID: String) -> String {
        let stem = "populated-token-" + loginID + "-"
        return stem + String(repeating: "z", count: max(0, 64 - stem.count))
    }

    /// The login of the generated person at `index`.
    static func email(_ index: Int) -> String { "person\(index)@people.example" }

    /// Runs `body` over `0..<total` in write transactions of `perTransaction` rows each.
    private func inTransactions(
        step: String,
        total: Int,
        perTransaction: Int = 20_000,
        progress: @escaping @Sendable (PopulationProgress) -> Void,
        _ body: @escaping @Sendable (any SQLDatabase, Range<Int>) async throws -> Void
    ) async throws {
        var start = 0
        while start < total {
            let range = start..<min(total, start + perTransaction)
            try await database.write { sql in try await body(sql, range) }
            start = range.upperBound
            progress(PopulationProgress(step: step, done: start, total: total))
        }
    }

    /// Checks again, in the transaction that writes the first people, that the database has no one:
    /// two `kinship populate` runs started at once both pass the first check, and the second must
    /// be refused as clearly as if it had come later (on PostgreSQL they wait for each other here).
    private static func claimEmpty(_ sql: any SQLDatabase) async throws {
        try await sql.serialize(on: ["populate"])
        let existing = try await sql.raw("SELECT COUNT(*) AS people FROM users").first(decodingColumn: "people", as: Int.self) ?? 0
        guard existing == 0 else { throw PopulationError.notEmpty(people: existing) }
    }

    /// Inserts `rows` into `table`, many rows a statement (both engines take the values of up to
    /// 30,000 placeholders at once).
    private static func insert(
        _ table: String,
        _ columns: [String],
        _ rows: [[any Encodable & Sendable]],
        in sql: any SQLDatabase
    ) async throws {
        let perStatement = max(1, min(1_000, 30_000 / columns.count))
        for start in stride(from: 0, to: rows.count, by: perStatement) {
            let values = SQLList(
                rows[start..<min(rows.count, start + perStatement)].map { row in SQLGroupExpression(SQLList(row.map { SQLBind($0) })) }
            )
            try await sql.raw(
                "INSERT INTO \(unsafeRaw: table) (\(unsafeRaw: columns.joined(separator: ", "))) VALUES \(values)"
            ).run()
        }
    }
}

extension FriendGraph {
    /// Whether `edge` (`person << 32 | friend`) is a friendship.
    func contains(_ edge: UInt64) -> Bool {
        var low = 0
        var high = directed.count
        while low < high {
            let middle = (low + high) / 2
            if directed[middle] < edge { low = middle + 1 } else { high = middle }
        }
        return low < directed.count && directed[low] == edge
    }
}
