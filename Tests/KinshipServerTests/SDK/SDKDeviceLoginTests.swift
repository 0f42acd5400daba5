import Foundation
import KinshipCore
import KinshipKit
import KinshipServer
import Testing

@Suite("KinshipKit device login against a live server", .timeLimit(.minutes(3)))
struct SDKDeviceLoginTests {
    @Test("the code is shown, the person approves on /device from another browser, the session opens with the token")
    func approved() async throws {
        try await withLiveServer(.sqlite) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let sdk = try await SDKClient(
                server: server,
                app: app,
                cache: MemoryTokenCache(),
                presenter: PersonAtBrowser(DialogPerson(server: server))
            )
            let shown = ShownCodes()
            let result = try await sdk.manager.logInWithDevice(permissions: [.openID, .email, .userFriends]) { device in
                shown.record(device)
                Task {
                    let browser = server.browser()
                    _ = try await browser.logIn("ada@example.com")
                    let consent = try await browser.enterDeviceCode(device.userCode)
                    _ = try await browser.submit(consent, action: "/device/confirm", button: ("action", "continue"), untick: ["email"])
                }
            }
            guard case .success(let login) = result else {
                Issue.record("the device login did not succeed: \(result)")
                return
            }
            let device = try #require(shown.devices.first)
            #expect(device.verificationURI.path == "/device" && device.verificationURIComplete?.query == "user_code=" + device.userCode)
            #expect(login.grantedPermissions == [.userFriends] && login.declinedPermissions == [.email])
            #expect(login.token.userID == ada.id && login.token.refreshToken != nil)
            #expect(login.authenticationToken?.claims.userID == ada.id && login.authenticationToken?.nonce == nil)
            #expect(await sdk.session.state == .open)
            #expect(try await sdk.graph.me().id == ada.id)
        }
    }

    @Test("Cancel on /device ends the login as cancelled; an unanswered code times out; the session fails either way")
    func deniedAndTimedOut() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let sdk = try await SDKClient(
                server: server,
                app: app,
                cache: MemoryTokenCache(),
                presenter: PersonAtBrowser(DialogPerson(server: server))
            )
            let cancelled = try await sdk.manager.logInWithDevice { device in
                Task {
                    let browser = server.browser()
                    _ = try await browser.logIn("ada@example.com")
                    let consent = try await browser.enterDeviceCode(device.userCode)
                    _ = try await browser.submit(consent, action: "/device/confirm", button: ("action", "cancel"))
                }
            }
            #expect(cancelled == .cancelled)
            #expect(await sdk.session.state == .closedLoginFailed)

            await #expect(throws: LoginError.timedOut) {
                try await sdk.manager.logInWithDevice { _ in }
            }
            #expect(await sdk.session.state == .closedLoginFailed, "a new session was started, and it failed too")
        }
    }
}

/// The device logins a test's `show` was given.
final class ShownCodes: @unchecked Sendable {
    private let lock = NSLock()
    private var shown: [DeviceAuthorization] = []

    func record(_ device: DeviceAuthorization) { lock.withLock { shown.append(device) } }
    var devices: [DeviceAuthorization] { lock.withLock { shown } }
}
