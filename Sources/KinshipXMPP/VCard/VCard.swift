import Crypto
import Foundation

/// A contact's business card (XEP-0054 vcard-temp): the fields a contact list shows.
public struct VCard: Sendable, Hashable {
    /// A picture and its MIME type.
    public struct Photo: Sendable, Hashable {
        /// The MIME type, such as `image/png`.
        public var type: String
        /// The image's bytes.
        public var data: Data

        /// A photo of `type` made of `data`.
        public init(type: String, data: Data) {
            self.type = type
            self.data = data
        }

        /// The XEP-0153 hash presence announces: SHA-1 of the image, in hex.
        public var hash: String { Insecure.SHA1.hash(data: data).map { String(format: "%02x", $0) }.joined() }
    }

    /// The name to show (`FN`).
    public var fullName: String?
    /// The nickname (`NICKNAME`).
    public var nickname: String?
    /// The given name (`N/GIVEN`).
    public var givenName: String?
    /// The family name (`N/FAMILY`).
    public var familyName: String?
    /// The email address (`EMAIL/USERID`).
    public var email: String?
    /// The picture (`PHOTO`).
    public var photo: Photo?

    /// A card from its fields; all are optional.
    public init(
        fullName: String? = nil,
        nickname: String? = nil,
        givenName: String? = nil,
        familyName: String? = nil,
        email: String? = nil,
        photo: Photo? = nil
    ) {
        self.fullName = fullName
        self.nickname = nickname
        self.givenName = givenName
        self.familyName = familyName
        self.email = email
        self.photo = photo
    }

    /// Reads a `<vCard xmlns='vcard-temp'/>`; missing fields are `nil`.
    public init(_ element: XMLElement) {
        func text(_ element: XMLElement?) -> String? { element.map(\.text).flatMap { $0.isEmpty ? nil : $0 } }
        let name = element.child("N")
        self.init(
            fullName: text(element.child("FN")),
            nickname: text(element.child("NICKNAME")),
            givenName: text(name?.child("GIVEN")),
            familyName: text(name?.child("FAMILY")),
            email: text(element.child("EMAIL")?.child("USERID")),
            photo: element.child("PHOTO").flatMap { photo in
                guard let encoded = text(photo.child("BINVAL")),
                    let data = Data(base64Encoded: encoded.filter { !$0.isWhitespace })
                else { return nil }
                return Photo(type: text(photo.child("TYPE")) ?? "image/png", data: data)
            }
        )
    }

    /// The card as a `<vCard xmlns='vcard-temp'/>` element.
    public var element: XMLElement {
        var card = XMLElement("vCard", namespace: Namespace.vcard)
        func add(_ name: String, _ value: String?, to parent: inout XMLElement) {
            if let value { parent.append(XMLElement(name, namespace: Namespace.vcard, children: [.text(value)])) }
        }
        add("FN", fullName, to: &card)
        if givenName != nil || familyName != nil {
            var name = XMLElement("N", namespace: Namespace.vcard)
            add("FAMILY", familyName, to: &name)
            add("GIVEN", givenName, to: &name)
            card.append(name)
        }
        add("NICKNAME", nickname, to: &card)
        if let email {
            var address = XMLElement("EMAIL", namespace: Namespace.vcard)
            add("USERID", email, to: &address)
            card.append(address)
        }
        if let photo {
            var picture = XMLElement("PHOTO", namespace: Namespace.vcard)
            add("TYPE", photo.type, to: &picture)
            add("BINVAL", photo.data.base64EncodedString(), to: &picture)
            card.append(picture)
        }
        return card
    }
}
