import Foundation
import KinshipKit
import NIOCore
import NIOHTTP1
import NIOPosix

/// Logs in from a desktop or terminal app (RFC 8252): the redirect goes to
/// `http://127.0.0.1:{free port}/callback`, served here, and the dialog opens in the system
/// browser (`$BROWSER`, then `xdg-open` or `open`).
///
/// The dialog URL is also given to `announce` so a person on a machine without a browser can
/// open it elsewhere; the redirect page tells them they can close the tab.
public actor LoopbackPresenter: LoginPresenter {
    /// Where the dialog URL is written for the person (a terminal line, a log).
    private let announce: @Sendable (URL) -> Void
    private let browser: SystemBrowser
    private var listener: (any Channel)?

    /// A presenter that opens the dialog with `browser` and tells `announce` its URL.
    ///
    /// - Parameters:
    ///   - browser: how the dialog is opened; ``SystemBrowser/none`` only announces it.
    ///   - announce: called with the dialog URL before the browser opens.
    public init(browser: SystemBrowser = .fromEnvironment(), announce: @escaping @Sendable (URL) -> Void = { _ in }) {
        self.browser = browser
        self.announce = announce
    }

    /// Starts listening on a free loopback port and returns `http://127.0.0.1:PORT/callback` as
    /// the redirect URI; the redirect that reaches it goes to `deliver`.
    ///
    /// - Throws: When no loopback port can be bound.
    public func prepare(for configuration: KinshipConfiguration, deliver: @escaping @Sendable (URL) async -> Void) async throws -> String {
        await finish()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(CallbackHandler(deliver: deliver))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        listener = channel
        guard let port = channel.localAddress?.port else { throw LoopbackError.noPort }
        return "http://127.0.0.1:\(port)\(CallbackHandler.path)"
    }

    /// Announces the dialog URL and opens it in the browser.
    ///
    /// - Throws: Nothing in practice: a browser that cannot start leaves the announced URL to open by hand.
    public func present(_ url: URL) async throws {
        announce(url)
        browser.open(url)
    }

    /// Stops listening; the login is over.
    public func finish() async {
        guard let listener else { return }
        self.listener = nil
        try? await listener.close()
    }
}

/// Why the loopback listener could not start.
public enum LoopbackError: Error, CustomStringConvertible {
    /// The listener was bound but reports no port.
    case noPort

    /// A sentence for the developer.
    public var description: String { "The loopback listener has no port." }
}
