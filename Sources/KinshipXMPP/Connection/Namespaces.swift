/// The XML namespaces of the XMPP core protocols.
enum Namespace {
    static let streams = "http://etherx.jabber.org/streams"
    static let tls = "urn:ietf:params:xml:ns:xmpp-tls"
    static let sasl = "urn:ietf:params:xml:ns:xmpp-sasl"
    static let bind = "urn:ietf:params:xml:ns:xmpp-bind"
    static let session = "urn:ietf:params:xml:ns:xmpp-session"
    static let streamErrors = "urn:ietf:params:xml:ns:xmpp-streams"
    static let roster = "jabber:iq:roster"
    static let rosterVersioning = "urn:xmpp:features:rosterver"
    static let discoInfo = "http://jabber.org/protocol/disco#info"
    static let vcard = "vcard-temp"
    static let vcardUpdate = "vcard-temp:x:update"
    static let nick = "http://jabber.org/protocol/nick"
}
