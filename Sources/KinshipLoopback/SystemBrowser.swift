import Foundation

/// Opens URLs in the person's browser: the programs in `$BROWSER` (colon-separated, `%s` marks
/// where the URL goes, as the convention has it), then `xdg-open`, then `open`.
public struct SystemBrowser: Sendable {
    /// Commands to try, in order; each is a program and its arguments.
    public let commands: [[String]]

    /// A browser that tries `commands` in order until one starts.
    public init(commands: [[String]]) {
        self.commands = commands
    }

    /// Opens nothing: the URL is only announced.
    public static let none = SystemBrowser(commands: [])

    /// `$BROWSER`'s commands, then `xdg-open` and `open`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> SystemBrowser {
        let configured = (environment["BROWSER"] ?? "").split(separator: ":").map { entry in
            entry.split(separator: " ").map(String.init)
        }.filter { !$0.isEmpty }
        return SystemBrowser(commands: configured + [["xdg-open"], ["open"]])
    }

    /// Starts the first command whose program exists, without waiting for it. Returns whether one started.
    @discardableResult
    public func open(_ url: URL) -> Bool {
        #if os(macOS) || os(Linux) || os(Windows)
        for command in commands {
            guard let program = Self.locate(command[0]) else { continue }
            let process = Process()
            process.executableURL = program
            let arguments = Array(command.dropFirst())
            process.arguments =
                arguments.contains("%s")
                ? arguments.map { $0 == "%s" ? url.absoluteString : $0 } : arguments + [url.absoluteString]
            do {
                try process.run()
                return true
            } catch {
                continue
            }
        }
        #endif
        return false
    }

    /// The executable a command names: a path, or a name found on `$PATH`.
    private static func locate(_ name: String) -> URL? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").lazy.map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
