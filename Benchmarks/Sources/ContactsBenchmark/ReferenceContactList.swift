import Foundation

/// The approach of the reference documents, as the baseline: transliterate every name with
/// ICU's Mandarin-Latin transform and strip the marks, file it under the first letter, sort each
/// section by the transformed string; searching filters the names again; an insert rebuilds.
struct ReferenceContactList {
    private(set) var sections: [(title: String, names: [String])] = []

    init(names: [String]) {
        var groups: [String: [(key: String, name: String)]] = [:]
        for name in names {
            let latin =
                name.applyingTransform(.mandarinToLatin, reverse: false)?
                .applyingTransform(.stripDiacritics, reverse: false)?.uppercased() ?? name
            let first = latin.first.map(String.init) ?? "#"
            let title = ("A"..."Z").contains(first) && first.count == 1 ? first : "#"
            groups[title, default: []].append((latin, name))
        }
        sections = groups.keys.sorted { lhs, rhs in lhs == "#" ? false : rhs == "#" ? true : lhs < rhs }
            .map { title in (title, groups[title]!.sorted { $0.key < $1.key }.map(\.name)) }
    }

    func filtered(by text: String) -> [(title: String, names: [String])] {
        sections.compactMap { section in
            let names = section.names.filter { $0.range(of: text, options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]) != nil }
            return names.isEmpty ? nil : (section.title, names)
        }
    }
}
