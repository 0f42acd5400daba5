import Foundation
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#endif

/// Sends one message per connection to an SMTP server (RFC 5321): `EHLO`, `STARTTLS` when asked,
/// `AUTH PLAIN` when there is an account, `MAIL FROM`, `RCPT TO`, `DATA`, `QUIT`.
///
/// No Swift SMTP library is among the packages this project may use, and Kinship sends a few
/// plain-text messages, so this is the small subset of the protocol that needs, on SwiftNIO and
/// NIOSSL, with every reply bounded and every step under one time limit.
struct SMTPClient: Sendable {
    let settings: SMTPSettings
    /// The name this host gives in `EHLO`: the public URL's host.
    let clientName: String
    /// How long one message may take, from connecting to `QUIT`.
    var timeLimit: Duration = .seconds(30)

    /// Sends `message`; returns the server's answer to the end of `DATA` (its queue id, usually).
    func send(_ message: MailMessage, senderName: String) async throws(SMTPError) -> String {
        guard MailAddress.isPlausible(message.recipient) else { throw .refusedAddress(message.recipient) }
        let data = message.rendered(
            sender: settings.sender,
            senderName: senderName,
            date: Date(),
            messageID: Secrets.generate(byteCount: 12) + "@" + clientName
        )
        do {
            return try await withThrowingTaskGroup(of: String.self) { group in
                group.addTask { try await converse(data, to: message.recipient) }
                group.addTask {
                    try await Task.sleep(for: timeLimit)
                    throw SMTPError.timedOut(timeLimit)
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        } catch let error as SMTPError {
            throw error
        } catch {
            throw .connection(Self.explanation(of: error, settings: settings))
        }
    }

    /// What went wrong with the connection, in words rather than a library's error.
    private static func explanation(of error: any Error, settings: SMTPSettings) -> String {
        let place = "\(settings.host):\(settings.port)"
        switch error {
        case is NIOSSLError, is BoringSSLError:
            return "the TLS handshake with \(place) failed: its certificate is not trusted or does not name \(settings.host)"
                + (settings.trustedCertificatesFile == nil ? "; a private CA goes in --smtp-ca-file" : "")
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return "nothing accepts connections at \(place)"
        case is NIOConnectionError, is IOError, is ChannelError:
            return "no connection to \(place) could be made"
        default:
            return "the connection to \(place) failed"
        }
    }

    private func converse(_ data: String, to recipient: String) async throws -> String {
        let tls = try makeTLSContext()
        let settings = settings
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: settings.host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if settings.security == .tls, let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: Self.sniName(settings.host))
                        )
                    }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var replies = SMTPReplyReader(inbound.makeAsyncIterator())
            func command(_ line: String, expecting codes: Set<Int>, step: String) async throws -> SMTPReply {
                try await outbound.write(ByteBuffer(string: line + "\r\n"))
                return try await replies.next(expecting: codes, step: step)
            }
            _ = try await replies.next(expecting: [220], step: "the greeting")
            var features = try await command("EHLO " + clientName, expecting: [250], step: "EHLO")
            if settings.security == .startTLS, let tls {
                guard features.lines.contains(where: { $0.uppercased() == "STARTTLS" }) else { throw SMTPError.noSTARTTLS(settings.host) }
                _ = try await command("STARTTLS", expecting: [220], step: "STARTTLS")
                let serverName = Self.sniName(settings.host)
                try await channel.channel.eventLoop.submit {
                    try channel.channel.pipeline.syncOperations.addHandler(
                        NIOSSLClientHandler(context: tls, serverHostname: serverName),
                        position: .first
                    )
                }.get()
                features = try await command("EHLO " + clientName, expecting: [250], step: "EHLO after STARTTLS")
            }
            if let username = settings.username, let password = settings.password {
                let credentials = Data(("\0" + username + "\0" + password).utf8).base64EncodedString()
                _ = try await command("AUTH PLAIN " + credentials, expecting: [235], step: "logging in (AUTH PLAIN)")
            }
            _ = try await command("MAIL FROM:<\(settings.sender)>", expecting: [250], step: "MAIL FROM")
            _ = try await command("RCPT TO:<\(recipient)>", expecting: [250, 251], step: "RCPT TO")
            _ = try await command("DATA", expecting: [354], step: "DATA")
            let accepted = try await command(Self.dotStuffed(data) + ".", expecting: [250], step: "the message")
            try? await outbound.write(ByteBuffer(string: "QUIT\r\n"))
            return accepted.lines.last ?? ""
        }
    }

    /// The TLS context for `starttls` and `tls`: the system's trust roots or the configured file,
    /// the server's name checked.
    private func makeTLSContext() throws -> NIOSSLContext? {
        guard settings.security != .none else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        if let file = settings.trustedCertificatesFile {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file))
            } catch {
                throw SMTPError.connection("the certificates in \(file) (--smtp-ca-file) cannot be read as PEM")
            }
        }
        return try NIOSSLContext(configuration: configuration)
    }

    /// Server Name Indication takes a host name, never an IP address.
    private static func sniName(_ host: String) -> String? {
        (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }

    /// RFC 5321 §4.5.2: a line of the message that starts with `.` gets one more.
    static func dotStuffed(_ data: String) -> String {
        data.split(separator: "\r\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
            .joined(separator: "\r\n")
    }
}
