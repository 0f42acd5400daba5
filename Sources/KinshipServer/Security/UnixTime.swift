import Foundation

/// Times as Kinship stores them: whole seconds since 1970.
enum UnixTime {
    static func now() -> Int { Int(Date().timeIntervalSince1970) }
}
