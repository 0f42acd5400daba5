/// A chat account's contact list: the connection, the roster (fetched, versioned, kept current
/// by pushes), friend requests, presence, and vCards, reported as ``XMPPClientEvent``s.
public actor XMPPClient {
    /// How the client behaves beyond connecting.
    public struct Options: Sendable {
        /// Fetch the roster right after logging in (on by default, as in the reference).
        public var autoFetchRoster = true
        /// Accept subscription requests from contacts already on the roster (off by default).
        public var autoAcceptKnownContacts = false
        /// Reconnect after the connection drops; `nil` (the default) does not.
        public var reconnect: ReconnectPolicy?
        /// Where the roster is kept between connections.
        public var rosterStore: any RosterStore = MemoryRosterStore()
        /// The presence sent after the roster is fetched; `nil` sends none.
        public var initialPresence: Presence? = Presence()
        /// How long a fetched vCard is used before it is fetched again.
        public var vCardLifetime: Duration = .seconds(24 * 60 * 60)

        /// The defaults: fetch the roster, send presence, no reconnecting, a roster kept in memory.
        public init() {}
    }

    /// Where and how the client connects and logs in.
    public let configuration: XMPPConfiguration
    /// How the client behaves beyond connecting.
    public let options: Options
    /// Everything that happens, in order. Ends when the client is disconnected for good.
    public nonisolated let events: AsyncStream<XMPPClientEvent>
    let eventSink: AsyncStream<XMPPClientEvent>.Continuation
    /// The roster as last fetched or pushed.
    public internal(set) var roster = Roster()
    /// What contacts' presence says.
    public internal(set) var presence = PresenceBook()
    /// JIDs that asked to see the user's presence and have not been answered.
    public internal(set) var incomingRequests: Set<JID> = []
    /// The names people asking to be friends gave with their request (XEP-0172), by bare JID.
    public internal(set) var requesterNames: [JID: String] = [:]
    /// The full JID of the current connection.
    public private(set) var boundJID: JID?
    var connection: XMPPConnection?
    var vCards = VCardCache()
    private var router: Task<Void, Never>?
    private var stopping = false

    /// A client for the account in `configuration`; nothing happens until ``connect()``.
    public init(configuration: XMPPConfiguration, options: Options = Options()) {
        self.configuration = configuration
        self.options = options
        (events, eventSink) = AsyncStream<XMPPClientEvent>.makeStream(bufferingPolicy: .unbounded)
    }

    /// Connects and logs in; then, as the options say, fetches the roster and sends presence.
    ///
    /// - Throws: ``XMPPError`` saying what failed in words: no connection, TLS, a refused login
    ///   (``XMPPError/notAuthorized``), binding. A failed first connection is thrown, not retried: the reconnect
    ///   policy applies once connected.
    public func connect() async throws(XMPPError) {
        stopping = false
        if roster.items.isEmpty, roster.version == nil, let stored = try? await options.rosterStore.load(for: configuration.jid) {
            roster = stored
        }
        try await openConnection()
    }

    /// Logs out and stops reconnecting.
    public func disconnect() async {
        stopping = true
        router?.cancel()
        router = nil
        await connection?.disconnect()
        connection = nil
        boundJID = nil
        presence.clear()
        eventSink.yield(.disconnected(nil))
    }

    /// Sends the user's own presence.
    ///
    /// - Parameters:
    ///   - show: How available: `nil` for plainly available, or away, chat, do not disturb, extended away.
    ///   - status: A sentence to show beside the name.
    ///   - priority: -128…127; the server delivers bare-JID messages to the highest. Negative means never.
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with.
    public func setPresence(show: Presence.Show? = nil, status: String? = nil, priority: Int = 0) async throws(XMPPError) {
        try await send(.presence(Presence(show: show, status: status, priority: priority)))
    }

    // MARK: - Connection life

    private func openConnection() async throws(XMPPError) {
        let connection = XMPPConnection(configuration: configuration)
        let jid = try await connection.connect()
        self.connection = connection
        boundJID = jid
        eventSink.yield(.connected(jid))
        router = Task { [weak self] in
            for await stanza in connection.stanzas {
                await self?.route(stanza)
            }
            await self?.connectionEnded(connection)
        }
        if options.autoFetchRoster { try await fetchRoster() }
        if let initial = options.initialPresence { try await send(.presence(initial)) }
    }

    private func connectionEnded(_ ended: XMPPConnection) async {
        guard connection === ended, !stopping else { return }
        connection = nil
        boundJID = nil
        presence.clear()
        eventSink.yield(.disconnected(.disconnected))
        guard let policy = options.reconnect else { return }
        var attempt = 0
        while !stopping, policy.maximumAttempts.map({ attempt < $0 }) ?? true {
            attempt += 1
            let delay = policy.delay(before: attempt)
            eventSink.yield(.reconnecting(attempt: attempt, after: delay))
            try? await Task.sleep(for: delay)
            guard !stopping else { return }
            do {
                try await openConnection()
                return
            } catch {
                continue
            }
        }
    }

    // MARK: - Routing

    private func route(_ stanza: Stanza) async {
        switch stanza {
        case .iq(let iq):
            await handle(iq)
        case .presence(let presence):
            await handle(presence)
        case .message(let message):
            if message.body != nil, message.kind != .error { eventSink.yield(.message(message)) }
        }
    }

    private func handle(_ iq: IQ) async {
        guard iq.kind == .get || iq.kind == .set else { return }
        if iq.kind == .set, let query = iq.payload, query.name == "query", query.namespace == Namespace.roster {
            await applyPush(iq, query: query)
            return
        }
        try? await send(.iq(iq.error(StanzaError(kind: .cancel, condition: "service-unavailable"))))
    }

    /// Sends a chat message to a contact.
    ///
    /// - Parameters:
    ///   - body: The text.
    ///   - jid: The friend: a bare JID reaches every connection of theirs, or the server keeps it while they
    ///       are offline.
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with.
    public func send(message body: String, to jid: JID) async throws(XMPPError) {
        try await send(.message(Message(kind: .chat, id: connection?.makeID(), to: jid, body: body)))
    }

    /// Sends any stanza (a presence with extensions, a message).
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with.
    public func send(_ stanza: Stanza) async throws(XMPPError) {
        guard let connection else { throw .disconnected }
        try await connection.send(stanza)
    }

    /// Sends an IQ request and returns its result (see ``XMPPConnection/request(_:)``).
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with. ``XMPPError/stanzaError(_:)`` for an `error` answer, ``XMPPError/timedOut(_:)`` when none comes in
    ///   time.
    public func request(_ iq: IQ) async throws(XMPPError) -> IQ {
        guard let connection else { throw .disconnected }
        return try await connection.request(iq)
    }
}
