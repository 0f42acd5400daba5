import KinshipContacts

/// A Graph friend as a contact of a KinshipContacts list.
extension Contact {
    /// A friend from the Graph API as a contact for a `ContactList`.
    public init(_ friend: GraphFriend) {
        self.init(
            id: friend.id,
            name: friend.name ?? friend.id,
            firstName: friend.firstName,
            middleName: friend.middleName,
            lastName: friend.lastName,
            pictureURL: friend.picture?.data.url
        )
    }
}
