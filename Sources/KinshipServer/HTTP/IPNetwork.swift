#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IP address range in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`, or one address), for
/// `--trusted-proxy`.
public struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    /// The network's address bytes: 4 for IPv4, 16 for IPv6.
    let bytes: [UInt8]
    let prefixLength: Int

    /// Parses `address/prefix` or a bare address; `nil` when it is neither.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.addressBytes(String(parts[0])) else { return nil }
        let longest = bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...longest).contains(length), !parts[1].hasPrefix("+") else { return nil }
            prefixLength = length
        } else {
            prefixLength = longest
        }
        self.bytes = bytes
    }

    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var address = bytes
        _ = inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, &address, &buffer, socklen_t(buffer.count))
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return "\(text)/\(prefixLength)"
    }

    /// Whether `address` (as text, IPv4 or IPv6) is in the range. An IPv4 address written as
    /// IPv6 (`::ffff:10.1.2.3`) counts as the IPv4 address.
    public func contains(_ address: String) -> Bool {
        guard let candidate = Self.addressBytes(address), candidate.count == bytes.count else { return false }
        var remaining = prefixLength
        for (network, other) in zip(bytes, candidate) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            guard network & mask == other & mask else { return false }
            remaining -= 8
        }
        return true
    }

    /// The bytes of an IPv4 or IPv6 address written as text; IPv4-mapped IPv6 addresses give
    /// their 4 IPv4 bytes.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }
}
