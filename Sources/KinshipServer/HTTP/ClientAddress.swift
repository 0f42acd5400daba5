import Foundation
import HTTPTypes

/// Whom a request comes from, for every per-address limit and log line: the connection's peer,
/// unless the peer is a proxy the operator trusts (`--trusted-proxy`), in which case the address
/// that proxy recorded in `Forwarded` (RFC 7239) or `X-Forwarded-For`.
///
/// The forwarded list is read from the right, past every trusted proxy, to the first address
/// no trusted proxy vouches for: what a client writes into the header itself lies further left
/// and is never believed. A peer outside the trusted ranges is always taken as it is.
struct ClientAddress: Sendable {
    let trustedProxies: [IPNetwork]

    /// The client's address for a request from `peer` with `headers`.
    func resolve(peer: String, headers: HTTPFields) -> String {
        guard isTrusted(peer) else { return peer }
        let chain = Self.forwardedFor(headers) ?? Self.xForwardedFor(headers)
        for hop in chain.reversed() {
            guard IPNetwork.addressBytes(hop) != nil else { return peer }
            if !isTrusted(hop) { return hop }
        }
        return chain.first ?? peer
    }

    private func isTrusted(_ address: String) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// The `for=` addresses of every `Forwarded` element, in order; `nil` without the header.
    static func forwardedFor(_ headers: HTTPFields) -> [String]? {
        let values = headers[values: .forwarded]
        guard !values.isEmpty else { return nil }
        var addresses: [String] = []
        for element in values.joined(separator: ",").split(separator: ",") {
            for pair in element.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" else { continue }
                addresses.append(Self.node(parts[1]))
            }
        }
        return addresses
    }

    /// The addresses of every `X-Forwarded-For` header, in order.
    static func xForwardedFor(_ headers: HTTPFields) -> [String] {
        headers[values: .xForwardedFor].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A `Forwarded` node as an address: quotes, IPv6 brackets and a port taken off
    /// (`"[2001:db8::1]:4711"` → `2001:db8::1`, `192.0.2.60:80` → `192.0.2.60`).
    private static func node(_ value: Substring) -> String {
        var text = value.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") { return String(text[text.index(after: text.startIndex)..<close]) }
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") { return String(text[..<colon]) }
        return text
    }
}

extension HTTPField.Name {
    static let forwarded = Self("Forwarded")!
    static let xForwardedFor = Self("X-Forwarded-For")!
}
