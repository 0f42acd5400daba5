/// One person in a list: a Graph friend, an XMPP roster contact, anyone an app shows by name.
public struct Contact: Sendable, Hashable, Codable, Identifiable {
    /// A stable identifier: a user id, a bare JID. Two contacts with the same id are one contact.
    public var id: String
    /// The name as the source gives it ("Ada Lovelace", "张三").
    public var name: String
    public var firstName: String?
    public var middleName: String?
    public var lastName: String?
    /// Other strings a search should find the contact by: a username, a JID, an email.
    public var searchKeys: [String]
    public var pictureURL: String?
    public var availability: Availability
    /// The title of the pinned section the contact belongs in (e.g. "Friend requests"), if any.
    public var pinnedSection: String?
    /// The app's own data about the contact, carried along untouched.
    public var payload: [String: String]

    public init(
        id: String,
        name: String,
        firstName: String? = nil,
        middleName: String? = nil,
        lastName: String? = nil,
        searchKeys: [String] = [],
        pictureURL: String? = nil,
        availability: Availability = .unknown,
        pinnedSection: String? = nil,
        payload: [String: String] = [:]
    ) {
        self.id = id
        self.name = name
        self.firstName = firstName
        self.middleName = middleName
        self.lastName = lastName
        self.searchKeys = searchKeys
        self.pictureURL = pictureURL
        self.availability = availability
        self.pinnedSection = pinnedSection
        self.payload = payload
    }
}

/// Whether a contact can be reached now, as presence or a friend list reports it.
public enum Availability: String, Sendable, Hashable, Codable, CaseIterable {
    case available
    case away
    case busy
    case offline
    case unknown
}
