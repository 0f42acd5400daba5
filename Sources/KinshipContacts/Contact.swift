/// One person in a list: a Graph friend, an XMPP roster contact, anyone an app shows by name.
public struct Contact: Sendable, Hashable, Codable, Identifiable {
    /// A stable identifier: a user id, a bare JID. Two contacts with the same id are one contact.
    public var id: String
    /// The name as the source gives it ("Ada Lovelace", "张三").
    public var name: String
    /// The given name, when the source gives the parts of the name.
    public var firstName: String?
    /// A middle name, when the source gives one.
    public var middleName: String?
    /// The family name, when the source gives the parts of the name.
    public var lastName: String?
    /// Other strings a search should find the contact by: a username, a JID, an email.
    public var searchKeys: [String]
    /// The address of the contact's picture.
    public var pictureURL: String?
    /// Whether the contact can be reached now.
    public var availability: Availability
    /// The title of the pinned section the contact belongs in (e.g. "Friend requests"), if any.
    public var pinnedSection: String?
    /// The app's own data about the contact, carried along untouched.
    public var payload: [String: String]

    /// A contact from its fields; only `id` and `name` are required.
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
    /// Online and free to talk.
    case available
    /// Online but away from the device.
    case away
    /// Online but asked not to be disturbed.
    case busy
    /// Not online.
    case offline
    /// The source says nothing about it (a Graph friend list has no presence).
    case unknown
}
