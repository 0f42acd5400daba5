/// Which name a list sorts and groups by.
public enum SortOrder: String, Sendable, Hashable, CaseIterable {
    /// "Ada Lovelace" sorts under A.
    case firstName
    /// "Ada Lovelace" sorts under L.
    case lastName
}

/// How a list shows a name it knows the parts of.
///
/// Names written in Chinese, Japanese or Korean characters are always shown family name first
/// and without a space ("张伟"), as their owners write them.
public enum DisplayOrder: String, Sendable, Hashable, CaseIterable {
    /// "Ada Lovelace".
    case firstLast
    /// "Lovelace Ada".
    case lastFirst
}

/// Whether a list lets the person pick one contact or several.
public enum SelectionMode: String, Sendable, Hashable {
    /// One contact at a time: selecting one deselects the other.
    case single
    /// Any number of contacts.
    case multiple
}
