/// One DNS SRV record (RFC 2782): where a service runs.
public struct SRVRecord: Sendable, Hashable {
    /// Lower is tried first.
    public var priority: UInt16
    /// Among records of one priority, the share of connections this one should get.
    public var weight: UInt16
    /// The service's port.
    public var port: UInt16
    /// The host name, without the final dot; `.` alone (empty here) means "no such service".
    public var target: String

    /// A record from its fields.
    public init(priority: UInt16, weight: UInt16, port: UInt16, target: String) {
        self.priority = priority
        self.weight = weight
        self.port = port
        self.target = target
    }
}

/// Why an SRV lookup gave no answer.
public enum SRVLookupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The answer could not be read as a DNS message.
    case malformed(String)
    /// The DNS server answered with an error code (`rcode`).
    case serverFailure(rcode: Int)
    /// The answer did not fit in one UDP message.
    case truncated
    /// No answer within the resolver's timeout.
    case timedOut
    /// No DNS server was given and `/etc/resolv.conf` names none.
    case noNameserver

    /// A sentence for the developer.
    public var description: String {
        switch self {
        case .malformed(let reason): "The DNS answer is malformed: \(reason)."
        case .serverFailure(let rcode): "The DNS server failed (RCODE \(rcode))."
        case .truncated: "The DNS answer was truncated."
        case .timedOut: "The DNS server did not answer in time."
        case .noNameserver: "No DNS server is configured (/etc/resolv.conf has no nameserver)."
        }
    }
}

/// The two DNS messages an SRV lookup needs: the query, and the answer read back, with every
/// length and compression pointer checked against the message's bounds.
enum DNSMessage {
    static let typeSRV: UInt16 = 33

    /// A recursive query for the SRV records of `name`.
    static func srvQuery(id: UInt16, name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        append(id, to: &bytes)
        append(0x0100, to: &bytes)
        for count in [1, 0, 0, 0] as [UInt16] { append(count, to: &bytes) }
        for label in name.split(separator: ".") {
            let utf8 = Array(label.utf8.prefix(63))
            bytes.append(UInt8(utf8.count))
            bytes += utf8
        }
        bytes.append(0)
        append(typeSRV, to: &bytes)
        append(1, to: &bytes)
        return bytes
    }

    /// The SRV records in the answer to query `id`; none for a name that does not exist.
    static func srvRecords(in message: [UInt8], id: UInt16) throws(SRVLookupError) -> [SRVRecord] {
        var reader = Reader(bytes: message)
        guard try reader.uint16() == id else { throw .malformed("the answer is for another query") }
        let flags = try reader.uint16()
        guard flags & 0x8000 != 0 else { throw .malformed("not a response") }
        if flags & 0x0200 != 0 { throw .truncated }
        let rcode = Int(flags & 0x000F)
        if rcode == 3 { return [] }
        guard rcode == 0 else { throw .serverFailure(rcode: rcode) }
        let questions = try reader.uint16()
        let answers = try reader.uint16()
        _ = try reader.uint16()
        _ = try reader.uint16()
        for _ in 0..<questions {
            _ = try reader.name()
            try reader.skip(4)
        }
        var records: [SRVRecord] = []
        for _ in 0..<answers {
            _ = try reader.name()
            let type = try reader.uint16()
            try reader.skip(6)
            let length = Int(try reader.uint16())
            let end = reader.position + length
            guard end <= message.count else { throw .malformed("a record runs past the end") }
            if type == typeSRV {
                let priority = try reader.uint16()
                let weight = try reader.uint16()
                let port = try reader.uint16()
                records.append(SRVRecord(priority: priority, weight: weight, port: port, target: try reader.name()))
            }
            reader.position = end
        }
        return records
    }

    /// Records in the order to try them: by priority, and within a priority by weighted chance.
    static func ordered(_ records: [SRVRecord]) -> [SRVRecord] {
        var result: [SRVRecord] = []
        for priority in Set(records.map(\.priority)).sorted() {
            var group = records.filter { $0.priority == priority }
            while !group.isEmpty {
                let total = group.reduce(0) { $0 + Int($1.weight) }
                var pick = total == 0 ? 0 : Int.random(in: 0...total)
                let index =
                    group.firstIndex { record in
                        pick -= Int(record.weight)
                        return pick <= 0
                    } ?? 0
                result.append(group.remove(at: index))
            }
        }
        return result
    }

    private static func append(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    /// Reads a message front to back.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func uint16() throws(SRVLookupError) -> UInt16 {
            guard position + 2 <= bytes.count else { throw .malformed("the message ends early") }
            defer { position += 2 }
            return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
        }

        mutating func skip(_ count: Int) throws(SRVLookupError) {
            guard position + count <= bytes.count else { throw .malformed("the message ends early") }
            position += count
        }

        /// A domain name, following compression pointers (at most 16, each pointing backwards).
        mutating func name() throws(SRVLookupError) -> String {
            var labels: [String] = []
            var cursor = position
            var jumps = 0
            var resume: Int?
            while true {
                guard cursor < bytes.count else { throw .malformed("a name runs past the end") }
                let length = Int(bytes[cursor])
                if length & 0xC0 == 0xC0 {
                    guard cursor + 1 < bytes.count else { throw .malformed("a pointer runs past the end") }
                    let target = (length & 0x3F) << 8 | Int(bytes[cursor + 1])
                    guard target < cursor, jumps < 16 else { throw .malformed("a compression pointer loops") }
                    if resume == nil { resume = cursor + 2 }
                    cursor = target
                    jumps += 1
                    continue
                }
                guard length & 0xC0 == 0 else { throw .malformed("an unknown label type") }
                if length == 0 {
                    cursor += 1
                    break
                }
                guard cursor + 1 + length <= bytes.count else { throw .malformed("a label runs past the end") }
                labels.append(String(decoding: bytes[(cursor + 1)...(cursor + length)], as: UTF8.self))
                cursor += 1 + length
                guard labels.count <= 127 else { throw .malformed("a name is too long") }
            }
            position = resume ?? cursor
            return labels.joined(separator: ".")
        }
    }
}
