/// A list of people sorted, grouped into sections (`A`…`Z`, then `#`, after any pinned sections),
/// searchable as you type, with a selection — the model behind the friend picker and the roster.
///
/// A value type: each contact's sort and search keys are computed once, when it arrives; inserts,
/// updates and removals cost two binary searches and report a ``ContactListChange`` for the UI;
/// a search is a view over the list, with sections and index for the matches only.
public struct ContactList: Sendable {
    /// Sorting by first or last name. Changing it re-sorts the list.
    public var sortOrder: SortOrder {
        didSet { if sortOrder != oldValue { rebuildKeys() } }
    }

    /// Showing names first–last or last–first. Changing it keeps the order.
    public var displayOrder: DisplayOrder {
        didSet { if displayOrder != oldValue { rebuildKeys() } }
    }

    /// The titles of the leading sections, in order; a contact whose ``Contact/pinnedSection``
    /// names one of them is listed there.
    public let pinnedSections: [String]

    /// Single or multiple selection. Switching to single keeps at most one selected contact.
    public var selectionMode: SelectionMode {
        didSet { if selectionMode == .single, selection.count > 1 { selection = Set(selectedContacts.prefix(1).map(\.id)) } }
    }

    /// The search text; the visible sections hold only the contacts that match it.
    public var searchText: String = "" {
        didSet { if searchText != oldValue { refilter() } }
    }

    /// The ids of the selected contacts. Kept across searches, re-sorts and updates; a removed
    /// contact leaves the selection.
    public private(set) var selection: Set<String> = []

    private var keyMaker: ContactKeyMaker
    private var entries: [String: Entry] = [:]
    private var all: SectionedEntries
    private var filtered: SectionedEntries?
    private var query = SearchQuery("")

    /// A list of `contacts`; later contacts with an id already seen replace the earlier ones.
    ///
    /// - Parameters:
    ///   - contacts: The contacts, in any order.
    ///   - sortOrder: Whether names file under their first or last name.
    ///   - displayOrder: How names with known parts are shown.
    ///   - pinnedSections: Titles of leading sections, in order, before `A`.
    ///   - selectionMode: Whether one or several contacts can be selected.
    public init(
        _ contacts: [Contact] = [],
        sortOrder: SortOrder = .firstName,
        displayOrder: DisplayOrder = .firstLast,
        pinnedSections: [String] = [],
        selectionMode: SelectionMode = .multiple
    ) {
        self.sortOrder = sortOrder
        self.displayOrder = displayOrder
        self.pinnedSections = pinnedSections
        self.selectionMode = selectionMode
        self.keyMaker = ContactKeyMaker(sortOrder: sortOrder, displayOrder: displayOrder, pinnedSections: pinnedSections)
        entries.reserveCapacity(contacts.count)
        for entry in keyMaker.entries(for: contacts) {
            entries[entry.contact.id] = entry
        }
        self.all = SectionedEntries(Array(entries.values))
    }

    // MARK: - Reading

    /// The visible sections: every contact, or the matches of ``searchText``.
    public var sections: [ContactSection] {
        visible.sections.map { ContactSection(id: $0.id, contacts: $0.entries.map(\.contact)) }
    }

    /// The index titles, one per visible section, in order.
    public var indexTitles: [String] { visible.sections.map(\.id.title) }

    /// How many sections are visible.
    public var numberOfSections: Int { visible.sections.count }

    /// How many contacts the visible section at `section` holds.
    public func numberOfRows(inSection section: Int) -> Int { visible.sections[section].entries.count }

    /// The visible contact at `position`; the position must be inside the visible sections.
    public func contact(at position: RowPosition) -> Contact {
        visible.sections[position.section].entries[position.row].contact
    }

    /// Where a contact is shown, if it is visible.
    public func position(ofContactWithID id: String) -> RowPosition? {
        entries[id].flatMap { visible.position(of: $0) }
    }

    /// Every contact (not only the visible ones), in list order.
    public var contacts: [Contact] { all.sections.flatMap { $0.entries.map(\.contact) } }

    /// How many contacts the list holds, visible or not.
    public var count: Int { entries.count }

    /// The contact with this id, visible or not.
    public subscript(id: String) -> Contact? { entries[id]?.contact }

    /// The name to show for a contact under this list's ``displayOrder``.
    public func displayName(of contact: Contact) -> String {
        NameFormatter.displayName(of: contact, order: displayOrder)
    }

    // MARK: - Selection

    /// The selected contacts, in list order.
    public var selectedContacts: [Contact] {
        all.sections.flatMap { $0.entries.lazy.filter { selection.contains($0.contact.id) }.map(\.contact) }
    }

    /// Selects a contact (in single mode, instead of the one selected before).
    public mutating func select(_ id: String) {
        guard entries[id] != nil else { return }
        if selectionMode == .single { selection.removeAll() }
        selection.insert(id)
    }

    /// Takes a contact out of the selection.
    public mutating func deselect(_ id: String) {
        selection.remove(id)
    }

    /// Selects a contact that is not selected, deselects one that is.
    public mutating func toggleSelection(_ id: String) {
        if selection.contains(id) { deselect(id) } else { select(id) }
    }

    /// Clears the selection and the search text together, as a picker's Clear button does.
    public mutating func clearSelection() {
        selection.removeAll()
        searchText = ""
    }

    // MARK: - Updates

    /// Adds a contact, or replaces the one with the same id.
    @discardableResult
    public mutating func insert(_ contact: Contact) -> ContactListChange {
        apply([(contact.id, contact)])
    }

    /// Adds or replaces several contacts (a page of friends, a roster push) in one change.
    @discardableResult
    public mutating func insert(contentsOf contacts: [Contact]) -> ContactListChange {
        apply(contacts.map { ($0.id, $0) })
    }

    /// Removes a contact.
    @discardableResult
    public mutating func remove(id: String) -> ContactListChange {
        apply([(id, nil)])
    }

    /// Removes several contacts in one change.
    @discardableResult
    public mutating func remove(ids: [String]) -> ContactListChange {
        apply(ids.map { ($0, nil) })
    }

    // MARK: - Internals

    private var visible: SectionedEntries { filtered ?? all }

    private mutating func refilter() {
        query = SearchQuery(searchText)
        filtered = query.isEmpty ? nil : all.filter { query.matches($0.key) }
    }

    private mutating func rebuildKeys() {
        keyMaker = ContactKeyMaker(sortOrder: sortOrder, displayOrder: displayOrder, pinnedSections: pinnedSections)
        let rekeyed = keyMaker.entries(for: entries.values.map(\.contact))
        entries = Dictionary(uniqueKeysWithValues: rekeyed.map { ($0.contact.id, $0) })
        all = SectionedEntries(rekeyed)
        refilter()
    }

    /// Applies inserts (a contact) and removals (`nil`) and reports what the visible sections did.
    private mutating func apply(_ changes: [(id: String, contact: Contact?)]) -> ContactListChange {
        var order: [String] = []
        var latest: [String: Contact?] = [:]
        for (id, contact) in changes {
            if latest.updateValue(contact, forKey: id) == nil { order.append(id) }
        }
        let oldSectionIDs = visible.sectionIDs
        var before: [String: (entry: Entry, position: RowPosition?)] = [:]
        for id in order {
            if let entry = entries[id] { before[id] = (entry, visible.position(of: entry)) }
        }
        for id in order {
            if let old = entries[id] {
                all.remove(old)
                filtered?.remove(old)
                entries[id] = nil
            }
            if let contact = latest[id] ?? nil {
                let entry = Entry(contact: contact, key: keyMaker.key(for: contact))
                all.insert(entry)
                if filtered != nil, query.matches(entry.key) { filtered?.insert(entry) }
                entries[id] = entry
            } else {
                selection.remove(id)
            }
        }
        let newSectionIDs = visible.sectionIDs
        var change = ContactListChange()
        change.deletedSections = oldSectionIDs.indices.filter { !newSectionIDs.contains(oldSectionIDs[$0]) }
        change.insertedSections = newSectionIDs.indices.filter { !oldSectionIDs.contains(newSectionIDs[$0]) }
        let deletedSections = Set(change.deletedSections)
        let insertedSections = Set(change.insertedSections)
        for id in order {
            let old = before[id]
            let new = entries[id].flatMap { entry in visible.position(of: entry).map { (entry: entry, position: $0) } }
            switch (old?.position, new?.position) {
            case (nil, nil):
                continue
            case (let from?, nil):
                if !deletedSections.contains(from.section) { change.deletedRows.append(from) }
            case (nil, let to?):
                if !insertedSections.contains(to.section) { change.insertedRows.append(to) }
            case (let from?, let to?):
                guard let old, let new, old.entry.contact != new.entry.contact else { continue }
                if old.entry.key.sortBytes == new.entry.key.sortBytes {
                    change.reloadedRows.append(from)
                } else if deletedSections.contains(from.section) || insertedSections.contains(to.section) {
                    if !deletedSections.contains(from.section) { change.deletedRows.append(from) }
                    if !insertedSections.contains(to.section) { change.insertedRows.append(to) }
                } else {
                    change.movedRows.append(.init(from: from, to: to))
                }
            }
        }
        change.deletedRows.sort()
        change.insertedRows.sort()
        change.reloadedRows.sort()
        return change
    }
}
