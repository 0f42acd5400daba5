import Foundation
import KinshipLoopback

/// Messages for the person at the terminal: results on standard output, everything else on
/// standard error so `--json` output stays clean.
enum Terminal {
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("kinship: \(message)\n".utf8))
    }

    static func note(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }

    /// The loopback presenter, announcing the dialog URL for a machine with no browser.
    static func loginPresenter(openBrowser: Bool = true) -> LoopbackPresenter {
        LoopbackPresenter(browser: openBrowser ? .fromEnvironment() : .none) { url in
            note("Opening the login dialog in your browser. If it does not open, visit:\n\n    \(url.absoluteString)\n")
        }
    }
}
