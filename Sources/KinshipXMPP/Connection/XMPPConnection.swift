import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// One logged-in XMPP connection: TCP, STARTTLS, SASL SCRAM, resource binding; then stanzas in
/// and out, and IQ requests matched to their answers.
///
/// ``connect()`` negotiates the whole stream or throws a typed ``XMPPError``. Incoming stanzas
/// that do not answer a request arrive on ``stanzas``; ``request(_:)`` sends an IQ and waits for
/// its result.
public actor XMPPConnection {
    /// Where and how the connection connects and logs in.
    public let configuration: XMPPConfiguration
    /// The full JID the server bound, once connected.
    public private(set) var boundJID: JID?
    /// Stanzas from the server that are not answers to ``request(_:)``. Ends when the
    /// connection closes.
    public nonisolated let stanzas: AsyncStream<Stanza>
    private let stanzaSink: AsyncStream<Stanza>.Continuation
    private var channel: (any Channel)?
    private var handler: NIOLoopBound<StreamEventHandler>?
    private var events: AsyncStream<StreamEvent>.AsyncIterator?
    private var eventSink: AsyncStream<StreamEvent>.Continuation?
    private var pending: [String: CheckedContinuation<IQ, any Error>] = [:]
    private var step = 0
    /// The time limit of the negotiation step under way; a step that ends cancels it.
    private var stepTimer: Task<Void, Never>?
    private var nextID = 0
    private var reader: Task<Void, Never>?
    /// Archive results (XEP-0313) arriving for queries under way, by query id.
    private var archiveResults: [String: [XMLElement]] = [:]
    /// Whether the stream has offered roster versioning (XEP-0237).
    public private(set) var supportsRosterVersioning = false

    /// A connection for `configuration`; nothing happens until ``connect()``.
    public init(configuration: XMPPConfiguration) {
        self.configuration = configuration
        (stanzas, stanzaSink) = AsyncStream<Stanza>.makeStream(bufferingPolicy: .unbounded)
    }

    // MARK: - Connecting

    /// Connects, secures and logs in; returns the bound JID (at once when already connected).
    ///
    /// - Throws: ``XMPPError`` saying what failed in words: no connection, TLS, a refused login
    ///   (``XMPPError/notAuthorized``), binding.
    @discardableResult
    public func connect() async throws(XMPPError) -> JID {
        if channel != nil, let boundJID { return boundJID }
        let (stream, sink) = AsyncStream<StreamEvent>.makeStream(bufferingPolicy: .unbounded)
        events = stream.makeAsyncIterator()
        eventSink = sink
        var lastError = XMPPError.disconnected
        for (host, port) in await configuration.endpoints() {
            do throws(XMPPError) {
                try await open(host: host, port: port, sink: sink)
                break
            } catch {
                lastError = error
            }
        }
        guard channel != nil else { throw lastError }
        do {
            let jid = try await negotiate()
            boundJID = jid
            startReading()
            return jid
        } catch {
            await close()
            throw error
        }
    }

    /// Opens the TCP connection with the stream handler in its pipeline.
    private func open(host: String, port: Int, sink: AsyncStream<StreamEvent>.Continuation) async throws(XMPPError) {
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(TimeAmount(configuration.timeout))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(StreamEventHandler(events: sink))
                    }
                }
                .connect(host: host, port: port).get()
            handler = try await channel.eventLoop.submit {
                NIOLoopBound(try channel.pipeline.syncOperations.handler(type: StreamEventHandler.self), eventLoop: channel.eventLoop)
            }.get()
            self.channel = channel
        } catch {
            throw Self.connectError(error, host: host, port: port)
        }
    }

    /// Closes the stream politely and the connection.
    public func disconnect() async {
        if let channel, channel.isActive {
            try? await channel.writeAndFlush(ByteBuffer(string: "</stream:stream>")).get()
        }
        await close()
    }

    // MARK: - Stanzas

    /// Sends a stanza.
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with.
    public func send(_ stanza: Stanza) async throws(XMPPError) {
        try await write(stanza.element.xmlString(parentNamespace: clientNamespace))
    }

    /// Sends an IQ `get` or `set` and returns the `result`; an `error` answer throws
    /// ``XMPPError/stanzaError(_:)``.
    public func request(_ iq: IQ) async throws(XMPPError) -> IQ {
        guard channel != nil, reader != nil else { throw .disconnected }
        var iq = iq
        if iq.id.isEmpty { iq.id = makeID() }
        let id = iq.id
        let timeout = configuration.timeout
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            await self?.fail(requestID: id, with: .timedOut("waiting for the answer to request \(id)"))
        }
        defer { timer.cancel() }
        let answer: IQ
        do {
            answer = try await withCheckedThrowingContinuation { continuation in
                pending[id] = continuation
                Task {
                    do throws(XMPPError) {
                        try await self.send(.iq(iq))
                    } catch {
                        self.fail(requestID: id, with: error)
                    }
                }
            }
        } catch let error as XMPPError {
            throw error
        } catch {
            throw .disconnected
        }
        if answer.kind == .error { throw .stanzaError(answer.error ?? StanzaError(kind: .cancel, condition: "undefined-condition")) }
        return answer
    }

    /// Sends an archive query (XEP-0313) and returns the `<result>` elements that came for it,
    /// in order, with the final answer. Results are collected here, in the order the connection
    /// reads them, so every one that came before the answer is in.
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with. ``XMPPError/stanzaError(_:)`` when the server refuses the query.
    public func queryArchive(_ iq: IQ, queryID: String) async throws(XMPPError) -> (results: [XMLElement], answer: IQ) {
        archiveResults[queryID] = []
        defer { archiveResults[queryID] = nil }
        let answer = try await request(iq)
        return (archiveResults[queryID] ?? [], answer)
    }

    /// A fresh stanza id.
    public func makeID() -> String {
        nextID += 1
        return "k\(nextID)"
    }

    private func fail(requestID: String, with error: XMPPError) {
        pending.removeValue(forKey: requestID)?.resume(throwing: error)
    }

    // MARK: - Negotiation

    private func negotiate() async throws(XMPPError) -> JID {
        var features = try await openStream()
        guard features.child("starttls", namespace: Namespace.tls) != nil else { throw .tlsUnavailable }
        try await write("<starttls xmlns='\(Namespace.tls)'/>")
        let answer = try await nextElement("starting TLS")
        guard answer.name == "proceed" else { throw .tlsFailed("the server answered <\(answer.name)/> to STARTTLS") }
        try await startTLS()
        features = try await openStream()
        try await authenticate(features)
        features = try await openStream()
        supportsRosterVersioning = features.child("ver", namespace: Namespace.rosterVersioning) != nil
        return try await bind(features)
    }

    /// Opens (or reopens) the stream and returns the server's features.
    private func openStream() async throws(XMPPError) -> XMLElement {
        try await restartParser()
        try await write(
            "<?xml version='1.0'?><stream:stream to='\(XMLEscaping.attribute(configuration.jid.domain))' version='1.0' "
                + "xmlns='jabber:client' xmlns:stream='\(Namespace.streams)'>"
        )
        let features = try await nextElement("opening the stream")
        guard features.name == "features", features.namespace == Namespace.streams else {
            throw .authenticationFailed("expected stream features, got <\(features.name)>")
        }
        return features
    }

    private func startTLS() async throws(XMPPError) {
        guard let channel else { throw .disconnected }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        // Closing waits this long for the server's TLS close_notify: a failed login ends at once.
        tls.shutdownTimeout = .milliseconds(250)
        do {
            if case .certificate(let path) = configuration.trust {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path))
            }
            let context = try NIOSSLContext(configuration: tls)
            let domain = configuration.jid.domain
            try await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: context, serverHostname: domain), position: .first)
            }.get()
        } catch {
            throw .tlsFailed(String(describing: error))
        }
    }

    private func authenticate(_ features: XMLElement) async throws(XMPPError) {
        let offered = features.child("mechanisms", namespace: Namespace.sasl)?.children("mechanism").map(\.text) ?? []
        let username = configuration.jid.local ?? ""
        if let tokenProvider = configuration.tokenProvider {
            try await authenticate(token: tokenProvider, username: username, offered: offered)
        } else if let hash = SCRAMClient.Hash.allCases.first(where: { offered.contains($0.mechanism) }) {
            var scram = SCRAMClient(hash: hash, username: username, password: configuration.password)
            try await write(Self.saslElement("auth", mechanism: hash.mechanism, scram.initialMessage))
            let challenge = try await saslAnswer()
            guard challenge.name == "challenge" else { throw .authenticationFailed("expected a challenge, got <\(challenge.name)>") }
            let final: String
            do {
                final = try scram.respond(to: Self.decode(challenge.text))
            } catch {
                throw .authenticationFailed(error.description)
            }
            try await write(Self.saslElement("response", mechanism: nil, final))
            let outcome = try await saslAnswer()
            guard outcome.name == "success" else { throw .authenticationFailed("unexpected <\(outcome.name)>") }
            do {
                try scram.verify(serverFinal: Self.decode(outcome.text))
            } catch {
                throw .authenticationFailed(error.description)
            }
        } else if configuration.allowsPlain, offered.contains("PLAIN") {
            try await write(Self.saslElement("auth", mechanism: "PLAIN", "\0\(username)\0\(configuration.password)"))
            let outcome = try await saslAnswer()
            guard outcome.name == "success" else { throw .authenticationFailed("unexpected <\(outcome.name)>") }
        } else {
            throw .noUsableMechanism(offered: offered)
        }
    }

    /// A token login: OAUTHBEARER (RFC 7628) when offered, else PLAIN with the token as the
    /// password (the stream is always encrypted by now).
    private func authenticate(
        token tokenProvider: XMPPConfiguration.TokenProvider,
        username: String,
        offered: [String]
    )
        async throws(XMPPError)
    {
        let token: String
        do {
            token = try await tokenProvider()
        } catch {
            throw .noToken(String(describing: error))
        }
        if offered.contains("OAUTHBEARER") {
            try await write(Self.saslElement("auth", mechanism: "OAUTHBEARER", "n,a=\(username),\u{1}auth=Bearer \(token)\u{1}\u{1}"))
            let answer = try await saslAnswer()
            if answer.name == "challenge" {
                // The server's JSON error (RFC 7628 §3.2.2); the client ends the exchange with %x01.
                try await write(Self.saslElement("response", mechanism: nil, "\u{1}"))
                _ = try await saslAnswer()
                throw .notAuthorized
            }
            guard answer.name == "success" else { throw .authenticationFailed("unexpected <\(answer.name)>") }
        } else if offered.contains("PLAIN") {
            try await write(Self.saslElement("auth", mechanism: "PLAIN", "\0\(username)\0\(token)"))
            let outcome = try await saslAnswer()
            guard outcome.name == "success" else { throw .authenticationFailed("unexpected <\(outcome.name)>") }
        } else {
            throw .noUsableMechanism(offered: offered)
        }
    }

    /// The next SASL element; a `<failure>` throws.
    private func saslAnswer() async throws(XMPPError) -> XMLElement {
        let element = try await nextElement("authenticating")
        if element.name == "failure" {
            let condition = element.elements.first { $0.name != "text" }?.name ?? "failure"
            let text = element.child("text")?.text
            switch condition {
            case "not-authorized": throw .notAuthorized
            case "temporary-auth-failure":
                throw .authenticationFailed("the server cannot check logins right now" + (text.map { " (\($0))" } ?? "") + "; try again later")
            default: throw .authenticationFailed(condition + (text.map { ": \($0)" } ?? ""))
            }
        }
        return element
    }

    private func bind(_ features: XMLElement) async throws(XMPPError) -> JID {
        guard features.child("bind", namespace: Namespace.bind) != nil else { throw .bindFailed("the server offers no resource binding") }
        var bind = XMLElement("bind", namespace: Namespace.bind)
        if let resource = configuration.resource { bind.append(XMLElement("resource", namespace: Namespace.bind, children: [.text(resource)])) }
        let iq = IQ(kind: .set, id: makeID(), payload: bind)
        try await write(iq.element.xmlString(parentNamespace: clientNamespace))
        let answer = try await nextElement("binding a resource")
        guard let result = IQ(answer), result.id == iq.id, result.kind == .result,
            let jid = result.payload?.child("jid", namespace: Namespace.bind).flatMap({ JID($0.text) })
        else {
            throw .bindFailed(IQ(answer)?.error?.description ?? "unexpected answer <\(answer.name)>")
        }
        if let session = features.child("session", namespace: Namespace.session), session.child("optional") == nil {
            let start = IQ(kind: .set, id: makeID(), payload: XMLElement("session", namespace: Namespace.session))
            try await write(start.element.xmlString(parentNamespace: clientNamespace))
            _ = try await nextElement("starting the session")
        }
        return jid
    }

    // MARK: - Reading

    private func startStep() -> Int {
        step += 1
        let number = step
        let sink = eventSink
        let timeout = configuration.timeout
        stepTimer?.cancel()
        stepTimer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            sink?.yield(.timedOut(number))
        }
        return number
    }

    private func nextEvent() async -> StreamEvent? {
        guard var iterator = events else { return nil }
        let event = await iterator.next(isolation: self)
        events = iterator
        return event
    }

    /// The next top-level element within the time limit; stream errors and closes throw.
    private func nextElement(_ what: String) async throws(XMPPError) -> XMLElement {
        let number = startStep()
        while true {
            switch await nextEvent() {
            case .element(let element):
                stepTimer?.cancel()
                if let failure = Self.streamFailure(element) { throw failure }
                return element
            case .opened: continue
            case .timedOut(let timedOut) where timedOut == number: throw .timedOut(what)
            case .timedOut: continue
            case .closed, nil: throw .disconnected
            case .failed(let error): throw Self.channelError(error)
            }
        }
    }

    /// After negotiation: answers go to their requests, everything else to ``stanzas``.
    private func startReading() {
        reader = Task { [weak self] in
            while let self, let event = await self.nextEvent() {
                guard await self.dispatch(event) else { break }
            }
            await self?.close()
        }
    }

    /// Handles one event; `false` when the stream is over.
    private func dispatch(_ event: StreamEvent) -> Bool {
        switch event {
        case .element(let element):
            if Self.streamFailure(element) != nil { return false }
            if element.name == "message", let result = element.child("result", namespace: Namespace.archive),
                let query = result[attribute: "queryid"], archiveResults[query] != nil
            {
                archiveResults[query]?.append(result)
                return true
            }
            guard let stanza = Stanza(element) else { return true }
            if case .iq(let iq) = stanza, iq.kind == .result || iq.kind == .error, let waiting = pending.removeValue(forKey: iq.id) {
                waiting.resume(returning: iq)
            } else {
                stanzaSink.yield(stanza)
            }
            return true
        case .opened, .timedOut: return true
        case .closed, .failed: return false
        }
    }

    private func close() async {
        let channel = self.channel
        self.channel = nil
        handler = nil
        stepTimer?.cancel()
        eventSink?.finish()
        eventSink = nil
        for (_, waiting) in pending { waiting.resume(throwing: XMPPError.disconnected) }
        pending.removeAll()
        stanzaSink.finish()
        try? await channel?.close().get()
    }

    // MARK: - Writing

    private func write(_ xml: String) async throws(XMPPError) {
        guard let channel else { throw .disconnected }
        do {
            try await channel.writeAndFlush(ByteBuffer(string: xml)).get()
        } catch {
            throw await reasonForClosing() ?? Self.channelError(error)
        }
    }

    /// Why the channel closed, when it reported a failure (a TLS handshake error, say) before
    /// the write that found it closed.
    private func reasonForClosing() async -> XMPPError? {
        while let event = await nextEvent() {
            switch event {
            case .failed(let error): return Self.channelError(error)
            case .element(let element): if let failure = Self.streamFailure(element) { return failure }
            case .closed: return nil
            case .opened, .timedOut: continue
            }
        }
        return nil
    }

    private func restartParser() async throws(XMPPError) {
        guard let channel, let handler else { throw .disconnected }
        do {
            try await channel.eventLoop.submit { handler.value.restart() }.get()
        } catch {
            throw .disconnected
        }
    }

    // MARK: - Errors

    private static func saslElement(_ name: String, mechanism: String?, _ payload: String) -> String {
        let mechanismAttribute = mechanism.map { " mechanism='\($0)'" } ?? ""
        return "<\(name) xmlns='\(Namespace.sasl)'\(mechanismAttribute)>\(Data(payload.utf8).base64EncodedString())</\(name)>"
    }

    private static func decode(_ base64: String) -> String {
        Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// A `<stream:error>` as an ``XMPPError``.
    static func streamFailure(_ element: XMLElement) -> XMPPError? {
        guard element.name == "error", element.namespace == Namespace.streams else { return nil }
        let condition = element.elements.first { $0.namespace == Namespace.streamErrors && $0.name != "text" }?.name ?? "undefined-condition"
        return .streamError(condition: condition, text: element.child("text", namespace: Namespace.streamErrors)?.text)
    }

    private static func channelError(_ error: any Error) -> XMPPError {
        if let error = error as? XMLStreamError { return .malformedStream(error) }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return .untrustedCertificate("it does not name the server's domain")
        }
        let described = String(describing: error)
        if error is NIOSSLError || error is BoringSSLError {
            return described.contains("CERTIFICATE_VERIFY_FAILED")
                ? .untrustedCertificate("it is not signed by an authority this device trusts") : .tlsFailed(described)
        }
        return .unreachable(String(describing: error))
    }

    private static func connectError(_ error: any Error, host: String, port: Int) -> XMPPError {
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }) {
                return .connectionRefused(host: host, port: port)
            }
            if error.connectionErrors.isEmpty, error.dnsAAAAError != nil || error.dnsAError != nil {
                return .unreachable("the host \(host) is unknown")
            }
        }
        if error is ChannelError { return .timedOut("connecting to \(host):\(port)") }
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED { return .connectionRefused(host: host, port: port) }
        return .unreachable(String(describing: error))
    }
}
