/// What a list precomputes for each contact when it arrives, so that sorting, grouping and every
/// search keystroke touch only bytes: the section, the sort key, and the texts a search looks in.
struct ContactKey: Sendable, Equatable {
    /// Where the section sorts: pinned sections first (in the order given), then A–Z, then `#`.
    let sectionRank: Int
    let section: SectionID
    /// The name in Latin letters, words separated by spaces: the primary sort key.
    let collation: [UInt8]
    /// The folded name as written: orders names with the same Latin form ("Zhang Wei", "张伟").
    let tiebreak: [UInt8]
    /// Folded texts a search looks for a substring in: the name, the display name, the search
    /// keys, and the name's Latin form (spaced and run together).
    let haystacks: [[UInt8]]
    /// For names with Han characters: the pinyin run together and its initials.
    let pinyin: Pinyin?

    /// "zhangsan" and "zs" for 张三.
    struct Pinyin: Sendable, Equatable {
        let compact: [UInt8]
        let initials: [UInt8]
    }

    /// The total order of a list: section, Latin form, written form, then id.
    static func precedes(_ lhs: ContactKey, _ lhsID: String, _ rhs: ContactKey, _ rhsID: String) -> Bool {
        if lhs.sectionRank != rhs.sectionRank { return lhs.sectionRank < rhs.sectionRank }
        if lhs.collation != rhs.collation { return lhs.collation.lexicographicallyPrecedes(rhs.collation) }
        if lhs.tiebreak != rhs.tiebreak { return lhs.tiebreak.lexicographicallyPrecedes(rhs.tiebreak) }
        return lhsID < rhsID
    }
}

/// Computes ``ContactKey``s under one list's settings.
struct ContactKeyMaker: Sendable {
    let sortOrder: SortOrder
    let displayOrder: DisplayOrder
    let pinnedSections: [String]

    func key(for contact: Contact) -> ContactKey {
        let sortName = sortName(of: contact)
        let latin = Latinizer.latinize(sortName.text, surnameFirst: sortName.surnameFirst)
        let section: SectionID
        let rank: Int
        if let pinned = contact.pinnedSection, let index = pinnedSections.firstIndex(of: pinned) {
            section = .pinned(pinned)
            rank = index
        } else if let letter = latin.initialLetter {
            section = .letter(Character(Unicode.Scalar(letter - 32)))
            rank = pinnedSections.count + Int(letter - UInt8(ascii: "a"))
        } else {
            section = .other
            rank = pinnedSections.count + 26
        }

        let foldedName = LetterFolding.fold(contact.name)
        var haystacks = [foldedName]
        let displayed = LetterFolding.fold(NameFormatter.displayName(of: contact, order: displayOrder))
        if displayed != foldedName { haystacks.append(displayed) }
        haystacks.append(contentsOf: contact.searchKeys.map(LetterFolding.fold))
        var pinyin: ContactKey.Pinyin?
        if contact.name.utf8.contains(where: { $0 >= 0x80 }) {
            let nameLatin = Latinizer.latinize(contact.name, surnameFirst: NameFormatter.startsWithHan(contact.name))
            haystacks.append(nameLatin.spaced)
            haystacks.append(nameLatin.compact)
            if nameLatin.hasHan { pinyin = .init(compact: nameLatin.compact, initials: nameLatin.initials) }
        }
        return ContactKey(
            sectionRank: rank, section: section, collation: latin.spaced, tiebreak: LetterFolding.fold(sortName.text),
            haystacks: haystacks, pinyin: pinyin)
    }

    /// The name the list sorts by, and whether it starts with a family name.
    private func sortName(of contact: Contact) -> (text: String, surnameFirst: Bool) {
        let first = NameFormatter.nonEmpty(contact.firstName)
        let middle = NameFormatter.nonEmpty(contact.middleName)
        let last = NameFormatter.nonEmpty(contact.lastName)
        if first != nil || last != nil {
            switch sortOrder {
            case .firstName:
                return ([first, middle, last].compactMap { $0 }.joined(separator: " "), first == nil)
            case .lastName:
                return ([last, first, middle].compactMap { $0 }.joined(separator: " "), last != nil)
            }
        }
        let name = contact.name.trimmingCharactersInSpaces()
        if NameFormatter.startsWithHan(name) { return (name, true) }
        if sortOrder == .lastName, let space = name.lastIndex(of: " ") {
            return (name[name.index(after: space)...] + " " + name[..<space], true)
        }
        return (name, false)
    }
}

extension String {
    func trimmingCharactersInSpaces() -> String {
        String(self.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
