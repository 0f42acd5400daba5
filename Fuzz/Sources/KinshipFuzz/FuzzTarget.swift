/// One parser that reads outside input, fed arbitrary bytes by libFuzzer (`scripts/fuzz`) or by
/// the corpus replay. A target must never crash or hang, whatever the bytes; where a parser has an
/// invariant (what it writes it reads back the same), the target checks it and traps when it breaks.
struct FuzzTarget: Sendable {
    /// The name used on the command line and for the corpus folder (`Fuzz/corpus/NAME`).
    let name: String
    /// What the target feeds, for `--help`.
    let summary: String
    let run: @Sendable (UnsafeRawBufferPointer) -> Void

    /// Every target, server first, then the chat client.
    static let all: [FuzzTarget] = serverTargets + chatTargets

    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// Stops the process with a message libFuzzer records next to the input, when an invariant breaks.
func invariant(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant broken: \(message())") }
}

extension UnsafeRawBufferPointer {
    /// The bytes as text; invalid UTF-8 is repaired, as a server reading a request would.
    var text: String { String(decoding: self, as: UTF8.self) }

    /// The bytes split at the first zero byte: two inputs from one.
    var halves: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) {
        guard let zero = firstIndex(of: 0) else { return (self, UnsafeRawBufferPointer(rebasing: self[endIndex...])) }
        return (UnsafeRawBufferPointer(rebasing: self[..<zero]), UnsafeRawBufferPointer(rebasing: self[(zero + 1)...]))
    }
}
