import Foundation

/// Where a roster is kept between connections, so an unchanged roster costs an empty result
/// (XEP-0237) and a reconnect re-syncs instead of starting over.
public protocol RosterStore: Sendable {
    /// The roster kept for `account` (a bare JID), or `nil`; an entry that cannot be read counts as
    /// none, which costs one full fetch.
    ///
    /// - Throws: When the store cannot be read at all; the client then fetches the whole roster.
    func load(for account: JID) async throws -> Roster?
    /// Keeps `roster` for `account`, replacing what was there.
    ///
    /// - Throws: When the roster cannot be kept; the client goes on with it in memory.
    func save(_ roster: Roster, for account: JID) async throws
}

/// Rosters kept for the life of the process.
public actor MemoryRosterStore: RosterStore {
    private var rosters: [JID: Roster] = [:]

    /// An empty store.
    public init() {}

    /// The roster kept for `account`, if any.
    public func load(for account: JID) -> Roster? { rosters[account.bare] }
    /// Keeps `roster` for `account`.
    public func save(_ roster: Roster, for account: JID) { rosters[account.bare] = roster }
}

/// Rosters kept as JSON files, one per account, written atomically. A file that cannot be read
/// is reported to `onProblem` and treated as no roster (the next fetch is a full one).
public struct FileRosterStore: RosterStore {
    /// The folder the roster files live in (made `0700`).
    public let folder: URL
    private let onProblem: @Sendable (String) -> Void

    /// A store in `folder`; `onProblem` hears about files that could not be read.
    public init(folder: URL, onProblem: @escaping @Sendable (String) -> Void = { _ in }) {
        self.folder = folder
        self.onProblem = onProblem
    }

    /// The roster stored for `account`; `nil` when there is none or its file could not be read.
    ///
    /// - Throws: Nothing in practice: an unreadable file is reported and counts as no roster.
    public func load(for account: JID) async throws -> Roster? {
        let file = url(for: account)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        do {
            return try JSONDecoder().decode(Roster.self, from: data)
        } catch {
            onProblem("The roster file \(file.path) could not be read (\(error)); fetching the whole roster.")
            return nil
        }
    }

    /// Writes `roster` for `account` atomically, readable by the owner only.
    ///
    /// - Throws: When the folder or file cannot be written.
    public func save(_ roster: Roster, for account: JID) async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(roster).write(to: url(for: account), options: .atomic)
    }

    /// `roster-<account>.json`, with characters outside `[A-Za-z0-9.@_-]` percent-encoded.
    private func url(for account: JID) -> URL {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.@_-")
        let name = account.bare.description.addingPercentEncoding(withAllowedCharacters: allowed) ?? "account"
        return folder.appendingPathComponent("roster-\(name).json")
    }
}
