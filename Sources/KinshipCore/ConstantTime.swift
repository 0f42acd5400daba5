/// Comparison of secrets that does not leak where they differ.
public enum ConstantTime {
    /// Compares two strings in time that depends only on their lengths, not on where they differ.
    public static func equals(_ lhs: String, _ rhs: String) -> Bool {
        let lhs = Array(lhs.utf8)
        let rhs = Array(rhs.utf8)
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
