import Foundation

/// What a list precomputes for each contact when it arrives, so that sorting, grouping and every
/// search keystroke touch only bytes: the section, the sort key, and the text a search looks in.
struct ContactKey: Sendable, Equatable {
    /// Where the section sorts: pinned sections first (in the order given), then A–Z, then `#`.
    let sectionRank: Int
    let section: SectionID
    /// The total order of the list as one byte string, compared with `memcmp`: the section rank,
    /// the name in Latin letters, the folded name as written (so "Zhang Wei" and "张伟" have an
    /// order), and the id — each part ended by a zero byte.
    let sortBytes: [UInt8]
    /// Every folded text a search looks in, each ended by a zero byte: the name, the display name,
    /// the search keys, and the name's Latin form (spaced and run together).
    let haystack: [UInt8]
    /// For names with Han characters: the pinyin run together, a zero byte, then its initials.
    let pinyin: [UInt8]?

    @inline(__always)
    static func precedes(_ lhs: ContactKey, _ rhs: ContactKey) -> Bool {
        lhs.sortBytes.withUnsafeBufferPointer { l in
            rhs.sortBytes.withUnsafeBufferPointer { r in
                let common = min(l.count, r.count)
                let order = common == 0 ? 0 : memcmp(l.baseAddress!, r.baseAddress!, common)
                return order != 0 ? order < 0 : l.count < r.count
            }
        }
    }
}

/// Computes ``ContactKey``s under one list's settings.
struct ContactKeyMaker: Sendable {
    let sortOrder: SortOrder
    let displayOrder: DisplayOrder
    let pinnedSections: [String]

    /// Entries for many contacts. (Spreading this over cores was measured slower: the threads
    /// contend on the shared strings' reference counts and on the allocator.)
    func entries(for contacts: [Contact]) -> [Entry] {
        contacts.map { Entry(contact: $0, key: key(for: $0)) }
    }

    func key(for contact: Contact) -> ContactKey {
        let sortName = sortName(of: contact)
        let latin = Latinizer.latinize(sortName.text, surnameFirst: sortName.surnameFirst)
        let section: SectionID
        let rank: Int
        if let pinned = contact.pinnedSection, let index = pinnedSections.firstIndex(of: pinned) {
            section = .pinned(pinned)
            rank = index
        } else if let letter = latin.initialLetter {
            section = SectionID.letters[Int(letter - UInt8(ascii: "a"))]
            rank = pinnedSections.count + Int(letter - UInt8(ascii: "a"))
        } else {
            section = .other
            rank = pinnedSections.count + 26
        }

        let foldedName = LetterFolding.fold(contact.name)
        var sortBytes: [UInt8] = []
        sortBytes.reserveCapacity(latin.spaced.count + foldedName.count + contact.id.utf8.count + 6)
        sortBytes.append(UInt8(truncatingIfNeeded: rank >> 8))
        sortBytes.append(UInt8(truncatingIfNeeded: rank))
        sortBytes.append(contentsOf: latin.spaced)
        sortBytes.append(0)
        if sortName.isName {
            sortBytes.append(contentsOf: foldedName.lazy.filter { $0 != 0 })
        } else {
            sortBytes.append(contentsOf: LetterFolding.fold(sortName.text).lazy.filter { $0 != 0 })
        }
        sortBytes.append(0)
        sortBytes.append(contentsOf: contact.id.utf8)

        var haystack = foldedName
        haystack.reserveCapacity(foldedName.count * 2 + latin.spaced.count * 2 + 40)
        haystack.append(0)
        if contact.firstName != nil || contact.lastName != nil {
            LetterFolding.fold(NameFormatter.displayName(of: contact, order: displayOrder), into: &haystack)
            haystack.append(0)
        }
        for key in contact.searchKeys {
            LetterFolding.fold(key, into: &haystack)
            haystack.append(0)
        }
        var pinyin: [UInt8]?
        if contact.name.utf8.contains(where: { $0 >= 0x80 }) {
            let nameLatin = sortName.isName ? latin : Latinizer.latinize(contact.name, surnameFirst: NameFormatter.startsWithHan(contact.name))
            haystack.append(contentsOf: nameLatin.spaced)
            haystack.append(0)
            let compactStart = haystack.count
            for byte in nameLatin.spaced where byte != UInt8(ascii: " ") { haystack.append(byte) }
            if nameLatin.hasHan { pinyin = haystack[compactStart...] + [0] + nameLatin.initials }
            haystack.append(0)
        }
        return ContactKey(sectionRank: rank, section: section, sortBytes: sortBytes, haystack: haystack, pinyin: pinyin)
    }

    /// The name the list sorts by, whether it starts with a family name, and whether it is just
    /// the contact's name as given.
    private func sortName(of contact: Contact) -> (text: String, surnameFirst: Bool, isName: Bool) {
        let first = NameFormatter.nonEmpty(contact.firstName)
        let middle = NameFormatter.nonEmpty(contact.middleName)
        let last = NameFormatter.nonEmpty(contact.lastName)
        if first != nil || last != nil {
            switch sortOrder {
            case .firstName:
                return ([first, middle, last].compactMap { $0 }.joined(separator: " "), first == nil, false)
            case .lastName:
                return ([last, first, middle].compactMap { $0 }.joined(separator: " "), last != nil, false)
            }
        }
        if NameFormatter.startsWithHan(contact.name) { return (contact.name, true, true) }
        if sortOrder == .lastName {
            let name = contact.name.trimmingSpaces()
            if let space = name.lastIndex(of: " ") {
                return (name[name.index(after: space)...] + " " + name[..<space], true, false)
            }
        }
        return (contact.name, false, true)
    }
}

extension String {
    /// The string without leading and trailing white space; the string itself when it has none.
    func trimmingSpaces() -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last,
            Latinizer.isSpace(first) || Latinizer.isSpace(last)
        else { return self }
        let scalars = unicodeScalars
        let start = scalars.firstIndex { !Latinizer.isSpace($0) } ?? scalars.endIndex
        let end = scalars.lastIndex { !Latinizer.isSpace($0) }.map { scalars.index(after: $0) } ?? start
        return String(scalars[start..<max(start, end)])
    }
}
