import Foundation
import Logging
import ServiceLifecycle

/// Runs Kinship Chat's Prosody as a child process of `kinship serve --chat`: on loopback, with a
/// self-signed certificate made on first start, configured by ``ChatServerConfiguration`` once the
/// server listens (Prosody needs its URL). A Prosody that stops is started again after a pause
/// that grows while it keeps stopping (1, 2, 4 … 30 s); on shutdown it is stopped and waited for.
public actor ChatServerSupervisor: Service {
    /// Where and how the chat server runs.
    public struct Settings: Sendable {
        /// The folder for the configuration, modules, certificate, data and log.
        public var folder: String
        /// The chat domain: addresses are `USERID@domain`.
        public var domain: String
        /// The loopback port chat clients connect to.
        public var port: Int

        /// The settings; `folder` should be an absolute path (Prosody reads paths from its own folder).
        public init(folder: String, domain: String, port: Int) {
            self.folder = folder
            self.domain = domain
            self.port = port
        }
    }

    /// Where chat clients find this chat server (with the certificate to trust).
    public nonisolated let location: ChatServerLocation
    private let settings: Settings
    private let prosody: URL
    private let secret: ServerSecret
    private let logger: Logger
    private let listening: AsyncStream<String>
    private let listeningSink: AsyncStream<String>.Continuation

    /// Checks that Prosody is installed and makes the certificate when there is none yet.
    /// - Throws: ``ChatSupervisorError`` saying what to install or fix.
    public init(settings: Settings, secret: ServerSecret, logger: Logger) throws {
        guard let prosody = Self.executable("prosody") else { throw ChatSupervisorError.prosodyMissing }
        try FileManager.default.createDirectory(
            atPath: settings.folder,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let certificate = settings.folder + "/chat.crt"
        if !FileManager.default.fileExists(atPath: certificate) {
            try Self.makeCertificate(at: certificate, key: settings.folder + "/chat.key", domain: settings.domain)
        }
        guard let pem = FileManager.default.contents(atPath: certificate) else { throw ChatSupervisorError.unreadable(certificate) }
        self.settings = settings
        self.prosody = prosody
        self.secret = secret
        self.logger = logger
        location = ChatServerLocation(
            domain: settings.domain,
            host: "127.0.0.1",
            port: settings.port,
            certificate: String(decoding: pem, as: UTF8.self)
        )
        (listening, listeningSink) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Tells the supervisor Kinship listens at `url`: Prosody starts then.
    public nonisolated func kinshipListening(at url: String) {
        listeningSink.yield(url)
        listeningSink.finish()
    }

    /// Waits for the server to listen, writes Prosody's configuration, then keeps Prosody running
    /// until the server shuts down.
    public func run() async throws {
        var urls = listening.makeAsyncIterator()
        guard let url = await urls.next(isolation: self), !Task.isShuttingDownGracefully else { return }
        var configuration = ChatServerConfiguration(
            domain: settings.domain,
            kinshipURL: url,
            clientPort: settings.port,
            listenAddress: "127.0.0.1",
            certificate: settings.folder + "/chat.crt",
            key: settings.folder + "/chat.key"
        )
        configuration.runtimeFolder = settings.folder
        let file = try configuration.write(to: settings.folder, secret: secret)
        var stops = 0
        while !Task.isShuttingDownGracefully {
            let started = ContinuousClock.now
            guard let status = try await runOnce(configuration: file) else { return }
            stops = ContinuousClock.now - started > .seconds(60) ? 1 : stops + 1
            let pause = min(30, 1 << min(stops - 1, 5))
            logger.warning(
                "Prosody stopped; starting it again",
                metadata: [
                    "exit_status": "\(status)", "retry_in_s": "\(pause)", "log": "\(settings.folder)/prosody.log",
                ]
            )
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(pause)) }
        }
    }

    /// Runs Prosody until it exits (its status) or the server shuts down (`nil`, once it stopped).
    private func runOnce(configuration file: String) async throws -> Int32? {
        let child = try ChildProcess.spawn(prosody.path, ["--config", file, "-F"])
        logger.info(
            "Kinship Chat: Prosody started",
            metadata: [
                "pid": "\(child.pid)", "address": "127.0.0.1:\(settings.port)", "domain": "\(settings.domain)",
                "log": "\(settings.folder)/prosody.log",
            ]
        )
        let status = await withGracefulShutdownHandler {
            await child.exit()
        } onGracefulShutdown: {
            child.terminate()
        }
        if Task.isShuttingDownGracefully {
            logger.info("Kinship Chat: Prosody stopped", metadata: ["pid": "\(child.pid)"])
            return nil
        }
        return status
    }

    /// The path of an executable on `PATH`.
    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").lazy.map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// A self-signed certificate for `domain` (ten years), made with OpenSSL.
    private static func makeCertificate(at certificate: String, key: String, domain: String) throws {
        guard let openssl = executable("openssl") else { throw ChatSupervisorError.opensslMissing }
        let status = try ChildProcess.spawn(
            openssl.path,
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650", "-subj", "/CN=\(domain)",
                "-addext", "subjectAltName=DNS:\(domain)", "-keyout", key, "-out", certificate,
            ]
        ).waitUntilExit()
        guard status == 0 else { throw ChatSupervisorError.certificateFailed("openssl req exited with status \(status)") }
    }
}

/// Why `kinship serve --chat` cannot run its chat server.
public enum ChatSupervisorError: Error, CustomStringConvertible {
    case prosodyMissing
    case opensslMissing
    case certificateFailed(String)
    case unreadable(String)
    case cannotStart(String)

    public var description: String {
        switch self {
        case .prosodyMissing:
            "Kinship Chat runs on Prosody, which is not installed: `sudo apt-get install prosody lua-sec` (Debian, Ubuntu), then start again, or leave out --chat."
        case .opensslMissing:
            "Kinship Chat needs the openssl command to make its certificate: `sudo apt-get install openssl`, or leave out --chat."
        case .certificateFailed(let message): "The chat server's certificate could not be made: \(message)"
        case .unreadable(let path): "Cannot read \(path): check the chat folder's permissions."
        case .cannotStart(let reason): "Prosody could not be started: \(reason)"
        }
    }
}
