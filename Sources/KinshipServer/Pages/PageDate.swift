import Foundation

/// How the pages write a moment: "24 Nov 2026 at 10:45 UTC".
enum PageDate {
    static func text(_ seconds: Int) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(
            Date.FormatStyle(date: .abbreviated, time: .shortened, locale: Locale(identifier: "en_GB"), timeZone: TimeZone(identifier: "UTC")!)
        )
            + " UTC"
    }
}
