import Foundation
import KinshipXMPP
import NIOCore
import NIOPosix
import Testing

@Suite("XMPP connection against a real Prosody", .enabled(if: ProsodyTestServer.isWanted), .needsProsody, .timeLimit(.minutes(3)))
struct ConnectionTests {
    @Test("STARTTLS with the trusted certificate, SCRAM, binding: logged in with a full JID")
    func login() async throws {
        let jid = try await ProsodyTestServer.register("ada")
        var configuration = ProsodyTestServer.configuration(jid)
        configuration.resource = "kinship-test"
        let connection = XMPPConnection(configuration: configuration)
        let bound = try await connection.connect()
        #expect(bound.bare == jid)
        #expect(bound.resource == "kinship-test")
        #expect(await connection.supportsRosterVersioning)
        let info = try await connection.request(
            IQ(
                kind: .get,
                id: "",
                to: JID(ProsodyTestServer.domain),
                payload: XMLElement("query", namespace: "http://jabber.org/protocol/disco#info")
            )
        )
        #expect(info.payload?.children("feature").contains { $0[attribute: "var"] == "jabber:iq:roster" } == true)
        await #expect(throws: XMPPError.self) {
            try await connection.request(
                IQ(
                    kind: .get,
                    id: "",
                    to: JID(ProsodyTestServer.domain),
                    payload: XMLElement("query", namespace: "urn:kinship:no-such-protocol")
                )
            )
        }
        await connection.disconnect()
        await #expect(throws: XMPPError.disconnected) { try await connection.send(.presence(Presence())) }
    }

    @Test("a wrong password is notAuthorized, at once")
    func wrongPassword() async throws {
        let jid = try await ProsodyTestServer.register("grace")
        // The same login with the right password, just before, is the yardstick, however busy the
        // machine is. (Prosody answers the client's TLS goodbye; ScriptedServerTests checks a
        // server that does not.)
        let loginStarted = ContinuousClock.now
        let good = XMPPConnection(configuration: ProsodyTestServer.configuration(jid))
        _ = try await good.connect()
        let login = ContinuousClock.now - loginStarted
        await good.disconnect()
        let connection = XMPPConnection(configuration: ProsodyTestServer.configuration(jid, password: "wrong password"))
        let started = ContinuousClock.now
        await #expect(throws: XMPPError.notAuthorized) { try await connection.connect() }
        let refusal = ContinuousClock.now - started
        #expect(refusal < login + .seconds(3), "a failed login took \(refusal), a good one \(login)")
    }

    @Test("a certificate the client does not trust fails TLS, before any password is sent")
    func untrustedCertificate() async throws {
        let jid = try await ProsodyTestServer.register("alan")
        var configuration = ProsodyTestServer.configuration(jid)
        configuration.trust = .system
        await #expect {
            try await XMPPConnection(configuration: configuration).connect()
        } throws: { error in
            guard case XMPPError.untrustedCertificate = error else { return false }
            return String(describing: error).contains("not trusted") && String(describing: error).contains("--trust-cert")
        }
    }

    @Test("an unknown domain is a stream error from the server")
    func unknownDomain() async throws {
        let configuration = XMPPConfiguration(
            jid: JID("ada@unknown.example")!,
            password: "x",
            host: "127.0.0.1",
            port: ProsodyTestServer.port,
            trust: .certificate(path: ProsodyTestServer.certificate),
            timeout: .seconds(10)
        )
        await #expect {
            try await XMPPConnection(configuration: configuration).connect()
        } throws: { error in
            if case XMPPError.streamError(condition: "host-unknown", _) = error { true } else { false }
        }
    }
}

@Suite("SASL mechanisms a server may offer", .enabled(if: ProsodyTestServer.isWanted), .needsProsody, .timeLimit(.minutes(3)))
struct MechanismTests {
    @Test("SCRAM-SHA-1 when the server offers no SCRAM-SHA-256")
    func scramSHA1() async throws {
        try await OwnProsody.with(extraConfig: #"disable_sasl_mechanisms = { "SCRAM-SHA-256", "DIGEST-MD5" }"#) { own in
            let ada = try await own.server.register("ada")
            let connection = XMPPConnection(configuration: own.server.configuration(ada))
            #expect(try await connection.connect().bare == ada)
            await connection.disconnect()
        }
    }

    @Test("the message archive (XEP-0313): the last messages with a contact, oldest first")
    func archive() async throws {
        try await OwnProsody.with { own in
            let ada = try await own.server.register("ada")
            let bob = try await own.server.register("bob")
            let adaClient = XMPPClient(configuration: own.server.configuration(ada))
            let bobClient = XMPPClient(configuration: own.server.configuration(bob))
            try await adaClient.connect()
            try await bobClient.connect()
            for text in ["one", "two", "three"] { try await adaClient.send(message: text, to: bob) }
            try await Task.sleep(for: .milliseconds(300))
            let history = try await bobClient.history(with: ada, limit: 2)
            #expect(history.map(\.body) == ["two", "three"])
            #expect(history.allSatisfy { $0.from?.bare == ada && $0.date != nil })
            #expect(try await adaClient.history(with: bob).map(\.body) == ["one", "two", "three"])
            for client in [adaClient, bobClient] { await client.disconnect() }
        }
    }

    @Test("PLAIN only when allowed, and then only over TLS")
    func plain() async throws {
        try await OwnProsody.with(extraConfig: #"disable_sasl_mechanisms = { "SCRAM-SHA-256", "SCRAM-SHA-1", "DIGEST-MD5" }"#) { own in
            let ada = try await own.server.register("ada")
            await #expect(throws: XMPPError.noUsableMechanism(offered: ["PLAIN"])) {
                try await XMPPConnection(configuration: own.server.configuration(ada)).connect()
            }
            var configuration = own.server.configuration(ada)
            configuration.allowsPlain = true
            let connection = XMPPConnection(configuration: configuration)
            #expect(try await connection.connect().bare == ada)
            await connection.disconnect()
            configuration.password = "wrong"
            await #expect(throws: XMPPError.notAuthorized) { try await XMPPConnection(configuration: configuration).connect() }
        }
    }
}

@Suite("XMPP connection failures", .timeLimit(.minutes(3)))
struct ConnectionFailureTests {
    @Test("nothing listening is connectionRefused")
    func refused() async throws {
        let port = try await freePort()
        let configuration = XMPPConfiguration(jid: JID("ada@kinship.test")!, password: "x", host: "127.0.0.1", port: port)
        await #expect(throws: XMPPError.connectionRefused(host: "127.0.0.1", port: port)) {
            try await XMPPConnection(configuration: configuration).connect()
        }
    }

    @Test("a server that accepts and never speaks times out")
    func silentServer() async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { $0.eventLoop.makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0).get()
        let configuration = XMPPConfiguration(
            jid: JID("ada@kinship.test")!,
            password: "x",
            host: "127.0.0.1",
            port: server.localAddress?.port ?? 0,
            timeout: .milliseconds(300)
        )
        await #expect(throws: XMPPError.timedOut("opening the stream")) {
            try await XMPPConnection(configuration: configuration).connect()
        }
        try await server.close()
    }

    /// A port nothing listens on: bound, read, and released.
    private func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 1
        try await channel.close()
        return port
    }
}
