import NIOCore

/// One SMTP reply: its code and the text of each of its lines.
struct SMTPReply: Sendable {
    let code: Int
    let lines: [String]
}

/// Reads SMTP replies off a connection: `250-…` lines continue a reply, `250 …` ends it. A reply
/// is bounded (lines of 2,048 bytes, 64 lines), so a hostile or broken server cannot make the
/// client hold an unbounded amount.
struct SMTPReplyReader {
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private var pending: [UInt8] = []

    static let maximumLineBytes = 2_048
    static let maximumLines = 64

    init(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) {
        self.inbound = inbound
    }

    /// The next reply; throws unless its code is one of `codes`.
    mutating func next(expecting codes: Set<Int>, step: String) async throws -> SMTPReply {
        var lines: [String] = []
        while true {
            let line = try await nextLine(step: step)
            guard line.utf8.count >= 3, let code = Int(line.prefix(3)), (200...599).contains(code) else {
                throw SMTPError.malformedReply(step: step, String(line.prefix(200)))
            }
            let separator = line.dropFirst(3).first
            lines.append(String(line.dropFirst(4)))
            guard separator == "-" else {
                guard codes.contains(code) else { throw SMTPError.refused(step: step, code: code, lines.joined(separator: " ")) }
                return SMTPReply(code: code, lines: lines)
            }
            guard lines.count < Self.maximumLines else { throw SMTPError.malformedReply(step: step, "more than \(Self.maximumLines) lines") }
        }
    }

    private mutating func nextLine(step: String) async throws -> String {
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(pending[..<end])
                pending.removeFirst(end + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard pending.count <= Self.maximumLineBytes else { throw SMTPError.malformedReply(step: step, "a line longer than 2,048 bytes") }
            guard let buffer = try await inbound.next() else { throw SMTPError.closed(step: step) }
            pending += buffer.readableBytesView
        }
    }
}
