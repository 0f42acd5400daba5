import Foundation

/// Where a roster is kept between connections, so an unchanged roster costs an empty result
/// (XEP-0237) and a reconnect re-syncs instead of starting over.
public protocol RosterStore: Sendable {
    func load(for account: JID) async throws -> Roster?
    func save(_ roster: Roster, for account: JID) async throws
}

/// Rosters kept for the life of the process.
public actor MemoryRosterStore: RosterStore {
    private var rosters: [JID: Roster] = [:]

    public init() {}

    public func load(for account: JID) -> Roster? { rosters[account.bare] }
    public func save(_ roster: Roster, for account: JID) { rosters[account.bare] = roster }
}

/// Rosters kept as JSON files, one per account, written atomically. A file that cannot be read
/// is reported to `onProblem` and treated as no roster (the next fetch is a full one).
public struct FileRosterStore: RosterStore {
    public let folder: URL
    private let onProblem: @Sendable (String) -> Void

    public init(folder: URL, onProblem: @escaping @Sendable (String) -> Void = { _ in }) {
        self.folder = folder
        self.onProblem = onProblem
    }

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
