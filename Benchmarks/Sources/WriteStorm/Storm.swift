import AsyncHTTPClient
import BenchmarkBrowser
import Foundation

/// Runs people writing at once for a while, and one reader beside them.
struct Storm {
    let client: HTTPClient
    let base: String
    let clientID: String

    /// The writes each person repeats, in this order: two of eight hash a password.
    static let cycle = ["consent", "token exchange", "friend request", "consent", "token exchange", "friend request", "login", "sign-up"]

    func run(people count: Int, for duration: Duration, into timings: Timings) async throws {
        let tag = UUID().uuidString.prefix(8).lowercased()
        var people: [Person] = []
        for index in 0..<count {
            let person = Person(
                visitor: Visitor(client: client, base: base),
                email: "storm-\(tag)-\(index)@example.com",
                clientID: clientID
            )
            try await person.signUp { _ in }
            people.append(person)
        }
        if count == 1 {
            // One person asks a partner who does nothing else.
            let partner = Person(visitor: Visitor(client: client, base: base), email: "partner-\(tag)@example.com", clientID: clientID)
            try await partner.signUp { _ in }
            people.append(partner)
        }
        let everyone = people
        let partners = everyone.map(\.userID)
        let deadline = ContinuousClock.now + duration
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, person) in everyone.prefix(count).enumerated() {
                group.addTask {
                    try await write(person, partner: partners[(index + 1) % partners.count], first: index, until: deadline, timings)
                }
            }
            group.addTask { try await read(as: everyone[0], until: deadline, timings) }
            try await group.waitForAll()
        }
    }

    private func write(
        _ person: Person,
        partner: String,
        first: Int,
        until deadline: ContinuousClock.Instant,
        _ timings: Timings
    )
        async throws
    {
        var step = first
        while ContinuousClock.now < deadline {
            let kind = Self.cycle[step % Self.cycle.count]
            step += 1
            let record: (Duration) -> Void = { duration in Task { await timings.record(kind, duration) } }
            do {
                switch kind {
                case "consent": try await person.consent(timing: record)
                case "token exchange": try await person.exchange(timing: record)
                case "friend request": try await person.toggleFriendRequest(to: partner, timing: record)
                case "login": try await person.logIn(timing: record)
                default:
                    let newcomer = Person(
                        visitor: Visitor(client: client, base: base),
                        email: "new-\(UUID().uuidString.lowercased())@example.com",
                        clientID: clientID
                    )
                    try await newcomer.signUp(timing: record)
                }
            } catch {
                await timings.fail("\(kind): \(error)")
            }
        }
    }

    /// Opens the consent page (a read of the session, the person and their grants) five times a second.
    private func read(as person: Person, until deadline: ContinuousClock.Instant, _ timings: Timings) async throws {
        let reader = Person(visitor: Visitor(client: client, base: base), email: person.email, clientID: clientID)
        try await reader.logIn { _ in }
        let dialog =
            "/dialog/oauth?"
            + Visitor.encode([
                ("client_id", clientID), ("redirect_uri", "http://127.0.0.1:9/callback"), ("response_type", "code"),
                ("scope", "email"), ("state", "s"), ("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
                ("code_challenge_method", "S256"),
            ])
        while ContinuousClock.now < deadline {
            let started = ContinuousClock.now
            let page = try await reader.visitor.get(dialog)
            await timings.record("read (dialog page)", ContinuousClock.now - started)
            if page.status != 200 { await timings.fail("read: HTTP \(page.status)") }
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}
