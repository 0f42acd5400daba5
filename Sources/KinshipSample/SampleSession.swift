import Foundation
import KinshipCore
import KinshipKit

/// One browser's visit to the sample app: the login in flight, the token once logged in, and a
/// message to show once (why the person was logged out).
struct SampleSession: Sendable {
    let id: String
    /// The token the app's forms carry, so another site cannot post them.
    let formToken: String
    /// The PKCE verifier and `state` of the login the dialog is showing, if one is.
    var pendingLogin: LoginSecrets?
    var token: AccessToken?
    var flash: SampleProblem?
    var lastSeen: Date
}

/// The sample app's sessions, in memory: a sample keeps no database of its own, so a restart
/// logs everyone out of it (not out of the platform).
actor SampleSessionStore {
    /// Sessions kept at most; the least recently seen go first.
    private let capacity: Int
    /// Seconds a session lives without being used.
    private let idleLifetime: TimeInterval
    private var sessions: [String: SampleSession] = [:]

    init(capacity: Int = 10_000, idleLifetime: TimeInterval = 12 * 60 * 60) {
        self.capacity = capacity
        self.idleLifetime = idleLifetime
    }

    /// The session behind a cookie value, or a new one.
    func session(for cookie: String?) -> SampleSession {
        let now = Date()
        if let cookie, var session = sessions[cookie], now.timeIntervalSince(session.lastSeen) < idleLifetime {
            session.lastSeen = now
            sessions[cookie] = session
            return session
        }
        if sessions.count >= capacity { evict(now: now) }
        let session = SampleSession(
            id: Base64URL.random(byteCount: 32),
            formToken: Base64URL.random(byteCount: 24),
            pendingLogin: nil,
            token: nil,
            flash: nil,
            lastSeen: now
        )
        sessions[session.id] = session
        return session
    }

    /// Changes a session that still exists.
    func update(_ id: String, _ change: (inout SampleSession) -> Void) {
        guard var session = sessions[id] else { return }
        change(&session)
        sessions[id] = session
    }

    /// Logs the person out of every session that holds a token of theirs, leaving `flash` for the
    /// next page; returns how many sessions that was.
    func forget(userID: String, flash: SampleProblem) -> Int {
        var forgotten = 0
        for (id, session) in sessions where session.token?.userID == userID {
            sessions[id]?.token = nil
            sessions[id]?.flash = flash
            forgotten += 1
        }
        return forgotten
    }

    /// Takes the one-time message off a session.
    func takeFlash(_ id: String) -> SampleProblem? {
        let flash = sessions[id]?.flash
        sessions[id]?.flash = nil
        return flash
    }

    private func evict(now: Date) {
        sessions = sessions.filter { now.timeIntervalSince($0.value.lastSeen) < idleLifetime }
        while sessions.count >= capacity, let oldest = sessions.min(by: { $0.value.lastSeen < $1.value.lastSeen }) {
            sessions[oldest.key] = nil
        }
    }
}
