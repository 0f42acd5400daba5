import Foundation
import KinshipCore
import KinshipKit
import KinshipLoopback
import Testing

/// The person in front of the browser during a KinshipKit login: logs in on the dialog, unticks
/// what they were told to, presses Continue (or Cancel) on every consent step, and reports where
/// the browser was sent.
struct DialogPerson: Sendable {
    let server: LiveServer
    var login = "ada@example.com"
    var untick: [Permission] = []
    var pressesCancel = false

    /// Completes the dialog at `url`; returns the redirect URL the dialog sent the browser to.
    func complete(_ url: URL) async throws -> URL {
        let browser = server.browser()
        var page = try await browser.get(Self.pathAndQuery(url))
        if let loginForm = page.form(action: "/dialog/login") {
            var fields = FormParameters()
            for field in loginForm.fields {
                fields.append(field.name, field.name == "login" ? login : field.name == "password" ? testPassword : field.value)
            }
            let loggedIn = try await browser.post("/dialog/login", form: fields)
            page = try await browser.get(try #require(loggedIn.location, "login failed: \(loggedIn.body)"))
        }
        while page.form(action: "/dialog/oauth/confirm") != nil {
            page = try await browser.submit(
                page,
                action: "/dialog/oauth/confirm",
                button: ("action", pressesCancel ? "cancel" : "continue"),
                untick: untick.map(\.rawValue)
            )
        }
        let location = try #require(page.location, "the dialog did not redirect: HTTP \(page.status) \(page.body)")
        return try #require(URL(string: location))
    }

    private static func pathAndQuery(_ url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}

/// A loopback login (the real listener on 127.0.0.1) whose "system browser" is a ``DialogPerson``:
/// it completes the dialog and then loads the redirect, as a browser would.
final class PersonAtBrowser: LoginPresenter, @unchecked Sendable {
    private let loopback = LoopbackPresenter(browser: .none)
    private let lock = NSLock()
    private var person: DialogPerson
    private var shownPages: [String] = []
    private var dialogURLs: [URL] = []

    init(_ person: DialogPerson) {
        self.person = person
    }

    /// What the person will do at the next dialog.
    func next(_ change: (inout DialogPerson) -> Void) {
        lock.withLock { change(&person) }
    }

    /// The dialog URLs shown so far.
    var dialogs: [URL] { lock.withLock { dialogURLs } }

    /// The pages the loopback listener showed after each redirect.
    var pages: [String] { lock.withLock { shownPages } }

    func prepare(for configuration: KinshipConfiguration, deliver: @escaping @Sendable (URL) async -> Void) async throws -> String {
        try await loopback.prepare(for: configuration, deliver: deliver)
    }

    func present(_ url: URL) async throws {
        let person = lock.withLock {
            dialogURLs.append(url)
            return self.person
        }
        let redirect = try await person.complete(url)
        let page = try await SystemTransport().send(TransportRequest(url: redirect))
        lock.withLock { shownPages.append(String(decoding: page.body, as: UTF8.self)) }
    }

    func finish() async {
        await loopback.finish()
    }
}

extension LiveServer {
    /// The platform's clock as KinshipKit reads time, so a test moves both sides at once.
    var dateClock: @Sendable () -> Date { { [clock] in Date(timeIntervalSince1970: TimeInterval(clock.now)) } }
}

/// The SDK's pieces for one app against a live server, on a given token cache, on the platform's clock.
struct SDKClient: Sendable {
    let configuration: KinshipConfiguration
    let manager: LoginManager
    let graph: GraphClient

    init(
        server: LiveServer,
        app: TestApp,
        cache: any TokenCache,
        presenter: any LoginPresenter,
        transport: any HTTPTransport = SystemTransport()
    ) async throws {
        let port = try #require(server.client.port)
        configuration = KinshipConfiguration(serverURL: URL(string: "http://127.0.0.1:\(port)")!, appID: app.id, requestTimeout: 10)
        let session = try await Session(appID: app.id, cache: cache, clock: server.dateClock)
        // A device login's waits between polls move the platform's clock instead of sleeping.
        manager = LoginManager(
            configuration: configuration,
            session: session,
            presenter: presenter,
            transport: transport,
            timeout: .seconds(20),
            sleep: { [clock = server.clock] wait in clock.advance(by: Int(wait.components.seconds)) }
        )
        graph = GraphClient(configuration: configuration, tokens: manager, transport: transport)
    }

    var session: Session { get async { await manager.session } }

    func recovery(transientRetries: Int = 3) -> GraphRecovery {
        GraphRecovery(graph: graph, loginManager: manager, maxTransientRetries: transientRetries, initialBackoff: .milliseconds(10))
    }
}
