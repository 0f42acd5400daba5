import Foundation

/// Which redirect URIs an app may use: exact matches of its registered ones, its own custom scheme,
/// and loopback redirects on any port (RFC 8252 §7.3).
enum RedirectURIPolicy {
    /// Checks a URI an app wants to register: absolute, no fragment (RFC 6749 §3.1.2), plain http
    /// only on loopback.
    static func validateForRegistration(_ uri: String) throws(AppError) {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(), !scheme.isEmpty
        else { throw .invalid("The redirect URI \"\(uri)\" is not an absolute URI.") }
        guard components.fragment == nil else {
            throw .invalid("The redirect URI \"\(uri)\" must not have a fragment (#…).")
        }
        if scheme == "http" || scheme == "https" {
            guard let host = components.host, !host.isEmpty else {
                throw .invalid("The redirect URI \"\(uri)\" has no host.")
            }
            guard hasValidPort(uri) else {
                throw .invalid("The redirect URI \"\(uri)\" has a port that is empty or not 1 to 65535.")
            }
            if scheme == "http", !isLoopback(host: host), host != "localhost" {
                throw .invalid("The redirect URI \"\(uri)\" uses plain http on a host that is not loopback; use https.")
            }
        }
        if ["javascript", "data", "file", "vbscript"].contains(scheme) {
            throw .invalid("The redirect URI \"\(uri)\" uses the \(scheme): scheme, which cannot be a redirect target.")
        }
    }

    /// Whether `requested` is a redirect URI `app` may use. Compares exactly, except that a
    /// registered loopback IP redirect (`http://127.0.0.1/cb`, `http://[::1]/cb`) matches the same
    /// URI on any port, as native apps pick a free port at run time.
    static func allows(_ requested: String, for app: AppRecord) -> Bool {
        if requested == app.customSchemeRedirectURI { return true }
        if app.redirectURIs.contains(requested) { return true }
        guard let requestedParts = LoopbackURI(requested) else { return false }
        return app.redirectURIs.contains { LoopbackURI($0)?.matches(requestedParts) ?? false }
    }

    /// Whether the URI's authority has no port, or a port of 1 to 65535 written in digits:
    /// `http://127.0.0.1:/cb`, `:0` and `:99999` are refused, whatever a URL parser makes of them.
    static func hasValidPort(_ uri: String) -> Bool {
        guard let schemeEnd = uri.range(of: "://") else { return true }
        var authority = uri[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            authority = authority[authority.index(after: close)...]
        } else if let colon = authority.firstIndex(of: ":") {
            authority = authority[colon...]
        } else {
            return true
        }
        guard !authority.isEmpty else { return true }
        guard authority.first == ":" else { return false }
        let digits = authority.dropFirst()
        guard (1...5).contains(digits.count), digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let port = Int(digits) else {
            return false
        }
        return (1...65_535).contains(port)
    }

    static func isLoopback(host: String) -> Bool {
        host == "127.0.0.1" || host == "[::1]" || host == "::1"
    }

    /// An `http://127.0.0.1…` or `http://[::1]…` URI split into the parts that must match.
    private struct LoopbackURI {
        let host: String
        let pathAndQuery: String

        init?(_ uri: String) {
            guard RedirectURIPolicy.hasValidPort(uri), let components = URLComponents(string: uri), components.scheme == "http",
                components.fragment == nil,
                components.user == nil, components.password == nil,
                let host = components.host, RedirectURIPolicy.isLoopback(host: host)
            else { return nil }
            self.host = host
            self.pathAndQuery = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        }

        func matches(_ other: LoopbackURI) -> Bool {
            host == other.host && pathAndQuery == other.pathAndQuery
        }
    }
}
