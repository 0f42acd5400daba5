import Foundation

/// Draws a QR code in the terminal with `qrencode` (libqrencode's tool, the `qrencode` package on
/// Debian and Homebrew), so a phone can open a device login's page without typing.
///
/// Drawing needs a terminal that shows UTF-8 block characters and ANSI colours (the code is drawn
/// black on white whatever the terminal's theme), and `qrencode` on the `PATH`; without either,
/// nothing is drawn and the address and code are typed by hand.
enum TerminalQRCode {
    /// When to draw.
    enum Mode: String, CaseIterable {
        /// When standard error is a UTF-8 terminal and `qrencode` is installed.
        case auto
        /// Whenever `qrencode` is installed, terminal or not.
        case always
        case never
    }

    /// The QR code of `text` as terminal lines, or `nil` when it is not to be drawn (and why).
    static func draw(
        _ text: String,
        mode: Mode,
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> Result<String, Skipped>
    {
        if mode == .never { return .failure(.notWanted) }
        if mode == .auto, !terminalShowsBlocks(environment) { return .failure(.notATerminal) }
        guard let qrencode = executable("qrencode", environment: environment) else { return .failure(.noQRencode) }
        let process = Process()
        process.executableURL = qrencode
        process.arguments = ["-t", "ANSIUTF8", "-m", "2", "-o", "-", text]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(.failed("\(qrencode.path) could not be started"))
        }
        let drawn = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let lines = String(data: drawn, encoding: .utf8), !lines.isEmpty else {
            return .failure(.failed("qrencode exited with status \(process.terminationStatus)"))
        }
        return .success(lines)
    }

    /// Why no code was drawn.
    enum Skipped: Error, Equatable {
        case notWanted
        case notATerminal
        case noQRencode
        case failed(String)
    }

    /// Standard error is a terminal other than `dumb`, with a UTF-8 locale.
    private static func terminalShowsBlocks(_ environment: [String: String]) -> Bool {
        guard isatty(FileHandle.standardError.fileDescriptor) == 1, environment["TERM"].map({ $0 != "dumb" }) ?? false else { return false }
        let locale = environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"] ?? ""
        return locale.uppercased().replacingOccurrences(of: "-", with: "").contains("UTF8")
    }

    private static func executable(_ name: String, environment: [String: String]) -> URL? {
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
