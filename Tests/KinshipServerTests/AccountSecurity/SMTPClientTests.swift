import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import KinshipServer

/// The SMTP client against real SMTP servers (aiosmtpd, started by the test command) and against
/// servers that misbehave.
@Suite("Sending mail over SMTP", .timeLimit(.minutes(2)))
struct SMTPClientTests {
    static func message(to recipient: String, text: String = "Hello") -> MailMessage {
        MailMessage(purpose: "test", userID: "1", recipient: recipient, recipientName: "Zoë Ōtsuka", subject: "Grüße, 你好", text: text)
    }

    @Test("plain SMTP: the message arrives whole, UTF-8 subject and name, and a line that is only a dot does not end it")
    func plain() async throws {
        let recipient = "plain-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let text = "First line\n.\n.leading dot\nLast line ünïcödé"
        let answer = try await SMTPClient(settings: try MailSink.plain(), clientName: "kinship.test")
            .send(Self.message(to: recipient, text: text), senderName: "Kinship")
        #expect(!answer.isEmpty)
        let received = try #require(try await MailSink.waitForMessages(to: recipient).first)
        #expect(received.text == text)
        #expect(received.headers["subject"] == "=?utf-8?b?R3LDvMOfZSwg5L2g5aW9?=")
        #expect(received.headers["from"] == "Kinship <no-reply@kinship.test>")
    }

    @Test("STARTTLS with the server's certificate checked, then AUTH PLAIN")
    func secure() async throws {
        let recipient = "secure-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        _ = try await SMTPClient(settings: try MailSink.secure(), clientName: "kinship.test").send(Self.message(to: recipient), senderName: "Kinship")
        #expect(try await MailSink.waitForMessages(to: recipient, secure: true).count == 1)
    }

    @Test(
        "a wrong SMTP password, an untrusted certificate, a plain connection to a server that requires TLS, and nobody listening: each a clear error"
    )
    func failures() async throws {
        var wrongPassword = try MailSink.secure()
        wrongPassword.password = "not the password"
        await expectFailure(wrongPassword, saying: "535")
        var untrusted = try MailSink.secure()
        untrusted.trustedCertificatesFile = nil
        await expectFailure(untrusted, saying: "Could not talk to the SMTP server")
        var plainToSecure = try MailSink.secure()
        plainToSecure.security = .none
        plainToSecure.username = nil
        await expectFailure(plainToSecure, saying: "refused")
        let closed = try await withServer(answering: { _ in }) { $0 }
        var nobody = try MailSink.plain()
        nobody.port = closed
        await expectFailure(nobody, saying: "Could not talk to the SMTP server")
    }

    @Test("a server that answers something other than SMTP, an endless line, or nothing at all")
    func brokenServers() async throws {
        try await withServer(answering: { channel in
            channel.writeAndFlush(ByteBuffer(string: "HTTP/1.1 400 Bad Request\r\n\r\n"), promise: nil)
        }) { port in
            var settings = try MailSink.plain()
            settings.port = port
            await expectFailure(settings, saying: "is not SMTP")
        }
        try await withServer(answering: { channel in
            channel.writeAndFlush(ByteBuffer(string: "220 " + String(repeating: "x", count: 10_000)), promise: nil)
        }) { port in
            var settings = try MailSink.plain()
            settings.port = port
            await expectFailure(settings, saying: "longer than 2,048 bytes")
        }
        try await withServer(answering: { _ in }) { port in
            var settings = try MailSink.plain()
            settings.port = port
            var client = SMTPClient(settings: settings, clientName: "kinship.test")
            client.timeLimit = .milliseconds(500)
            await #expect(throws: SMTPError.self) { _ = try await client.send(Self.message(to: "x@example.com"), senderName: "Kinship") }
        }
    }

    @Test("settings an operator got wrong are named with what to do: a bad port, sender, missing password, or a password in the clear")
    func settingsProblems() {
        let good = SMTPSettings(host: "mail.example.com", port: 587, security: .startTLS, username: "u", password: "p", sender: "a@example.com")
        #expect(good.problem == nil)
        var bad = good
        bad.port = 70_000
        #expect(bad.problem?.contains("not a port number") == true)
        bad = good
        bad.sender = "no-reply"
        #expect(bad.problem?.contains("not an email address") == true)
        bad = good
        bad.password = nil
        #expect(bad.problem?.contains("KINSHIP_SMTP_PASSWORD") == true)
        bad = good
        bad.security = .none
        #expect(bad.problem?.contains("in the clear") == true)
        bad.host = "127.0.0.1"
        #expect(bad.problem == nil, "a relay on this host may take the password without TLS")
    }

    private func expectFailure(_ settings: SMTPSettings, saying text: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            _ = try await SMTPClient(settings: settings, clientName: "kinship.test").send(Self.message(to: "x@example.com"), senderName: "Kinship")
            Issue.record("the message was sent", sourceLocation: sourceLocation)
        } catch {
            #expect(error.description.contains(text), "\(error)", sourceLocation: sourceLocation)
        }
    }

    /// Runs a TCP server on a free loopback port that does `answer` with each new connection.
    private func withServer<Result>(
        answering answer: @escaping @Sendable (any Channel) -> Void,
        _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                answer(channel)
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = server.localAddress?.port ?? 0
        do {
            let result = try await body(port)
            try await server.close()
            return result
        } catch {
            try? await server.close()
            throw error
        }
    }
}
