/// Where a ``Session`` is in its life, as the reference SDK named the states.
public enum SessionState: String, Sendable, Hashable, CaseIterable {
    /// Made, no token yet.
    case created
    /// Made, and a cached token that is still valid was found: opening needs no dialog.
    case createdTokenLoaded
    /// Opening: the login dialog is showing.
    case createdOpening
    /// Open with a token.
    case open
    /// Open, and the token was replaced (more permissions, or a longer life).
    case openTokenExtended
    /// Opening failed or was cancelled. Final.
    case closedLoginFailed
    /// Closed. Final: a new session is made to log in again.
    case closed

    /// Whether the session is open.
    public var isOpen: Bool { self == .open || self == .openTokenExtended }

    /// Whether the session has ended.
    public var isClosed: Bool { self == .closed || self == .closedLoginFailed }

    /// The states a session may move to from this one.
    public var successors: Set<SessionState> {
        switch self {
        case .created: [.createdTokenLoaded, .createdOpening, .closed]
        case .createdTokenLoaded: [.open, .createdOpening, .closed]
        case .createdOpening: [.open, .closedLoginFailed, .closed]
        case .open, .openTokenExtended: [.openTokenExtended, .closed]
        case .closedLoginFailed, .closed: []
        }
    }
}

/// One move of a session, as observers see it.
public struct SessionStateChange: Sendable, Equatable {
    /// The state before the move.
    public let from: SessionState
    /// The state after it.
    public let to: SessionState
}

/// Why a session refused a request.
public enum SessionError: Error, Equatable, CustomStringConvertible {
    /// The move is not one the state diagram allows (a closed session cannot reopen).
    case illegalTransition(from: SessionState, to: SessionState)
    /// The token was issued to another app than the session's.
    case tokenForAnotherApp(expected: String, got: String)

    /// A sentence for the developer.
    public var description: String {
        switch self {
        case .illegalTransition(let from, let to):
            "A session cannot go from \(from.rawValue) to \(to.rawValue)\(from.isClosed ? "; make a new session to log in again" : "")."
        case .tokenForAnotherApp(let expected, let got): "The token is for app \(got), not \(expected)."
        }
    }
}
