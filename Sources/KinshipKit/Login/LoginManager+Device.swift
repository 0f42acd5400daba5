import Foundation
import KinshipCore

extension LoginManager {
    /// Logs the person in with a device login (RFC 8628), for a device without a browser — a TV,
    /// a terminal on a server: the platform gives a code, `show` displays it with the address to
    /// type it at, and the manager polls until the person answers on another device.
    ///
    /// The person's Cancel, the code expiring (``LoginError/timedOut``), ``cancel()`` and the
    /// calling task's cancellation end it like a dialog login. With
    /// `Permission.openID` among `permissions`, the id_token is verified (a device
    /// login has no nonce) and returned.
    ///
    /// - Throws: ``LoginError`` saying what went wrong in words: ``LoginError/timedOut`` when the device code
    ///   expires before the person answers. A person who declines gives a ``LoginResult/cancelled`` result, not
    ///   an error.
    public func logInWithDevice(
        permissions: [Permission] = [],
        show: @Sendable (DeviceAuthorization) async -> Void
    )
        async throws(LoginError) -> LoginResult
    {
        guard pending == nil else { throw .loginInProgress }
        try Self.checkKinds(permissions)
        if await session.state.isClosed { try await startNewSession() }
        let extending = await session.state.isOpen
        pending = PendingLogin(redirectURI: "", state: "", outcomes: AsyncStream.makeStream().continuation)
        deviceLoginCancelled = false
        if !extending, let error = await beginOpening() { return try await fail(error, extending) }
        let device: DeviceAuthorization
        do {
            device = try await exchange.startDeviceLogin(permissions: permissions)
        } catch {
            return try await fail(error, extending)
        }
        await show(device)
        var interval = device.interval
        var waited = 0
        while waited < device.expiresIn {
            do {
                try await sleep(.seconds(interval))
            } catch {
                return try await fail(nil, extending)
            }
            waited += interval
            if deviceLoginCancelled { return try await fail(nil, extending) }
            let answer: DevicePoll
            do {
                answer = try await exchange.poll(device)
            } catch .transport {
                continue  // The network comes and goes; the code's life bounds the waiting.
            } catch {
                return try await fail(error, extending)
            }
            switch answer {
            case .pending:
                continue
            case .slowDown:
                interval += 5
            case .denied:
                return try await fail(nil, extending)
            case .expired:
                return try await fail(.timedOut, extending)
            case .issued(let issued):
                do {
                    let (token, authentication) = try await adopt(issued, openID: permissions.contains(.openID), nonce: nil, extending: extending)
                    pending = nil
                    return .success(
                        LoginSuccess(
                            token: token,
                            grantedPermissions: token.permissions.intersection(permissions),
                            declinedPermissions: token.declinedPermissions.intersection(permissions),
                            authenticationToken: authentication
                        )
                    )
                } catch {
                    return try await fail(error, extending)
                }
            }
        }
        return try await fail(.timedOut, extending)
    }
}
