import Foundation

/// The app's way to show the login dialog and to bring the person back.
///
/// The ``LoginManager`` asks the presenter for a redirect URI, shows the dialog through it, and
/// waits for the redirect URL. A presenter that receives the redirect itself (a loopback listener)
/// passes it to `deliver`; otherwise the app hands it over with ``LoginManager/handleOpenURL(_:)``.
public protocol LoginPresenter: Sendable {
    /// Gets ready for one login; returns the redirect URI the dialog sends the person back to.
    ///
    /// - Throws: When the redirect cannot be received (a listener that cannot start); the login fails with the
    ///   error.
    func prepare(
        for configuration: KinshipConfiguration,
        deliver: @escaping @Sendable (URL) async -> Void
    ) async throws
        -> String
    /// Shows the dialog at `url`.
    ///
    /// - Throws: When the dialog cannot be shown; the login fails with the error.
    func present(_ url: URL) async throws
    /// The login is over (done, failed or cancelled): release what ``prepare(for:deliver:)`` took.
    func finish() async
}

/// Logs in through the app's custom URL scheme, `kinship{appID}://authorize`: the app shows the
/// dialog (e.g. in `ASWebAuthenticationSession`) and passes the URL the system opens the app with
/// to ``LoginManager/handleOpenURL(_:)``.
public struct CustomSchemePresenter: LoginPresenter {
    private let show: @Sendable (URL) async throws -> Void

    /// A presenter that shows the dialog with `show`.
    public init(show: @escaping @Sendable (URL) async throws -> Void) {
        self.show = show
    }

    /// The app's custom-scheme redirect URI (``KinshipConfiguration/customSchemeRedirectURI``).
    public func prepare(for configuration: KinshipConfiguration, deliver: @escaping @Sendable (URL) async -> Void) -> String {
        configuration.customSchemeRedirectURI
    }

    /// Shows the dialog with the closure the presenter was made with.
    ///
    /// - Throws: What the `show` closure throws.
    public func present(_ url: URL) async throws { try await show(url) }

    /// Nothing to clean up: the app's scheme handler outlives the login.
    public func finish() async {}
}
