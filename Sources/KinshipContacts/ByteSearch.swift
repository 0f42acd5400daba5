extension Array where Element == UInt8 {
    /// Whether `needle` occurs in these bytes. A plain scan for the first byte, then a compare:
    /// names are short, so this beats building a search table per keystroke.
    func containsBytes(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= count else { return false }
        return withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { needle in
                let first = needle[0]
                let lastStart = haystack.count - needle.count
                var index = 0
                while index <= lastStart {
                    if haystack[index] == first {
                        var offset = 1
                        while offset < needle.count, haystack[index + offset] == needle[offset] { offset += 1 }
                        if offset == needle.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }

}
