import NIOConcurrencyHelpers

/// The platform's public base URL: configured, or learnt from the address the server bound to
/// (so `--port 0` still names the real port).
final class Issuer: Sendable {
    private let value: NIOLockedValueBox<String>

    init(_ url: String) {
        self.value = NIOLockedValueBox(Issuer.trimmed(url))
    }

    var url: String { value.withLockedValue { $0 } }

    func update(_ url: String) {
        value.withLockedValue { $0 = Issuer.trimmed(url) }
    }

    /// `http://HOST:PORT`, or `http://HOST` without a port, with an IPv6 host in brackets.
    static func loopbackURL(host: String, port: Int?) -> String {
        let authority = host.contains(":") ? "[\(host)]" : host
        return "http://" + authority + (port.map { ":\($0)" } ?? "")
    }

    private static func trimmed(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
