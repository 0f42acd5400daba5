import Hummingbird
import KinshipCore
import Logging
import ServiceLifecycle

/// The roster calls of Prosody's `mod_roster_kinship`, which keeps chat rosters equal to Kinship
/// friend lists (all behind ``ChatServerGate``):
///
/// - `POST /chat/roster` `user=ID`: the person's roster — friends, requests they sent, requests
///   waiting for them — with names from the profiles.
/// - `POST /chat/subscription` `user=ID&contact=ID&type=subscribe|subscribed|unsubscribe|unsubscribed|remove`:
///   a subscription a chat client sent, applied to the friend list (``ChatSubscription``).
/// - `POST /chat/roster/changes` `since=CURSOR&wait=SECONDS`: whose rosters changed after the
///   cursor (``ChatRosterChanges``; -1 asks only for the cursor), answered as soon as something
///   changed or after `wait` seconds (a long poll), so pushes reach online clients within a
///   fraction of a second.
struct ChatRosterController: Sendable {
    let platform: Platform
    let gate: ChatServerGate
    let maxFormBytes: Int

    /// The longest a change poll is held open.
    static let maxWait = 30.0
    /// How often a held poll looks for changes another process made.
    static let pollInterval = Duration.milliseconds(50)

    private struct Roster: Encodable {
        let items: [ChatRosterItem]
    }

    private struct Changes: Encodable {
        let cursor: Int
        let users: [String]
        let start_over: Bool
    }

    private struct Done: Encodable {
        let done = true
    }

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.post("/chat/roster") { request, context in try await gate.answer(request, context, formLimit: maxFormBytes, roster) }
        router.post("/chat/subscription") { request, context in
            try await gate.answer(request, context, formLimit: maxFormBytes) { try await subscription($0, context) }
        }
        router.post("/chat/roster/changes") { request, context in
            try await gate.answer(request, context, formLimit: maxFormBytes) { try await changes($0) }
        }
    }

    private func roster(_ form: FormParameters) async throws -> Response {
        guard let user = form["user"], !user.isEmpty else { return ChatServerGate.refuse("Send user=ID.", status: .badRequest) }
        guard let items = try await ChatRosters(database: platform.database).roster(of: user) else {
            return ChatServerGate.refuse("\(user) is not a Kinship person.", status: .notFound)
        }
        return JSONResponse.make(Roster(items: items))
    }

    private func subscription(_ form: FormParameters, _ context: KinshipRequestContext) async throws -> Response {
        guard let user = form["user"], !user.isEmpty, let contact = form["contact"], !contact.isEmpty,
            let kind = form["type"].flatMap(ChatSubscription.init(rawValue:))
        else {
            let kinds = ChatSubscription.allCases.map(\.rawValue).joined(separator: ", ")
            return ChatServerGate.refuse("Send user=ID, contact=ID and type=\(kinds).", status: .badRequest)
        }
        do {
            try await kind.apply(from: user, about: contact, to: platform.friends)
        } catch AccountError.unknownUser(let id) {
            return ChatServerGate.refuse("\(id) is not a Kinship person: only Kinship people can be friends in chat.", status: .notFound)
        } catch AccountError.invalid(let reason) {
            return ChatServerGate.refuse(reason, status: .badRequest)
        }
        context.logger.info(
            "Chat subscription applied to the friend list",
            metadata: ["user.id": "\(user)", "chat.contact": "\(contact)", "chat.subscription": "\(kind.rawValue)"]
        )
        return JSONResponse.make(Done())
    }

    private func changes(_ form: FormParameters) async throws -> Response {
        guard let since = form["since"].flatMap(Int.init), since >= -1 else {
            return ChatServerGate.refuse("Send since=CURSOR (-1 the first time).", status: .badRequest)
        }
        let wait = min(max(form["wait"].flatMap(Double.init) ?? 0, 0), Self.maxWait)
        let log = ChatRosterChanges(database: platform.database)
        let deadline = ContinuousClock.now + .milliseconds(Int(wait * 1000))
        var page = try await log.changes(after: since)
        while since >= 0, page.userIDs.isEmpty, !page.startOver, ContinuousClock.now < deadline,
            !Task.isShuttingDownGracefully, !Task.isCancelled
        {
            try? await Task.sleep(for: Self.pollInterval)
            page = try await log.changes(after: since)
        }
        return JSONResponse.make(Changes(cursor: page.cursor, users: page.userIDs, start_over: page.startOver))
    }
}
