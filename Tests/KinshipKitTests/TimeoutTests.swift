import Foundation
import KinshipCore
import KinshipKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP port on 127.0.0.1 that accepts connections (the kernel's backlog does) but never answers.
private final class SilentListener {
    let port: Int
    private let socketDescriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        socketDescriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socketDescriptor) }
}

@Suite("Time limits")
struct TimeoutTests {
    @Test("a Graph call to a server that never answers times out as a transient error")
    func graphTimeout() async throws {
        let silent = try SilentListener()
        let configuration = KinshipConfiguration(serverURL: URL(string: "http://127.0.0.1:\(silent.port)")!, appID: "1", requestTimeout: 0.5)
        let cache = MemoryTokenCache()
        await cache.save(
            AccessToken(
                tokenString: "kat_x",
                appID: "1",
                userID: "2",
                permissions: [.publicProfile],
                expirationDate: Date().addingTimeInterval(3600)
            ),
            forKey: "default"
        )
        let session = try await Session(appID: "1", cache: cache)
        try await session.openWithCachedToken()
        let started = ContinuousClock.now
        await #expect {
            try await GraphClient(configuration: configuration, tokens: session).me()
        } throws: { error in
            (error as? GraphError)?.category == .transient
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("a login with no redirect in time fails as timedOut; a cancelled task cancels the login")
    func loginTimeout() async throws {
        let configuration = KinshipConfiguration(serverURL: URL(string: "http://127.0.0.1:1")!, appID: "1")
        let presenter = CustomSchemePresenter { _ in }
        let manager = LoginManager(
            configuration: configuration,
            session: try await Session(appID: "1", cache: MemoryTokenCache()),
            presenter: presenter,
            timeout: .milliseconds(200)
        )
        await #expect(throws: LoginError.timedOut) { try await manager.logIn() }
        #expect(await manager.session.state == .closedLoginFailed)

        let patient = LoginManager(
            configuration: configuration,
            session: try await Session(appID: "1", cache: MemoryTokenCache()),
            presenter: presenter
        )
        let login = Task { try await patient.logIn() }
        try await Task.sleep(for: .milliseconds(100))
        login.cancel()
        #expect(try await login.value == .cancelled)
        #expect(await patient.session.state == .closedLoginFailed)
    }
}
