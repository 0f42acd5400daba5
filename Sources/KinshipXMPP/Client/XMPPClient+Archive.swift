import Foundation

/// A message from the server's archive (XEP-0313).
public struct ArchivedMessage: Sendable, Equatable {
    /// The archive's id for it.
    public var id: String
    /// Who sent it.
    public var from: JID?
    /// Who it was for.
    public var to: JID?
    /// Its text.
    public var body: String
    /// When the server archived it.
    public var date: Date?
}

extension XMPPClient {
    /// The last `limit` messages exchanged with `jid`, oldest first, from the server's archive
    /// (XEP-0313 message archive management, `urn:xmpp:mam:2`).
    ///
    /// - Parameters:
    ///   - jid: The contact the conversation is with.
    ///   - limit: How many of the newest messages to read.
    ///
    /// - Throws: ``XMPPError/stanzaError(_:)`` when the server keeps no archive.
    public func history(with jid: JID, limit: Int = 50) async throws(XMPPError) -> [ArchivedMessage] {
        guard let connection else { throw .disconnected }
        let queryID = await connection.makeID()
        let form = XMLElement(
            "x",
            namespace: Namespace.dataForms,
            ["type": "submit"],
            children: [
                .element(
                    XMLElement(
                        "field",
                        namespace: Namespace.dataForms,
                        ["var": "FORM_TYPE", "type": "hidden"],
                        children: [
                            .element(XMLElement("value", namespace: Namespace.dataForms, children: [.text(Namespace.archive)]))
                        ]
                    )
                ),
                .element(
                    XMLElement(
                        "field",
                        namespace: Namespace.dataForms,
                        ["var": "with"],
                        children: [
                            .element(XMLElement("value", namespace: Namespace.dataForms, children: [.text(jid.bare.description)]))
                        ]
                    )
                ),
            ]
        )
        // The last page: at most `limit`, counted back from the newest (XEP-0059 `<before/>`).
        let page = XMLElement(
            "set",
            namespace: Namespace.resultSets,
            children: [
                .element(XMLElement("max", namespace: Namespace.resultSets, children: [.text(String(limit))])),
                .element(XMLElement("before", namespace: Namespace.resultSets)),
            ]
        )
        let query = XMLElement("query", namespace: Namespace.archive, ["queryid": queryID], children: [.element(form), .element(page)])
        let (results, _) = try await connection.queryArchive(IQ(kind: .set, id: "", payload: query), queryID: queryID)
        return results.compactMap(Self.archived)
    }

    private static func archived(_ result: XMLElement) -> ArchivedMessage? {
        guard let forwarded = result.child("forwarded", namespace: Namespace.forward),
            let message = forwarded.child("message"), let body = message.child("body")?.text
        else { return nil }
        let stamp = forwarded.child("delay", namespace: Namespace.delay)?[attribute: "stamp"]
        return ArchivedMessage(
            id: result[attribute: "id"] ?? "",
            from: message[attribute: "from"].flatMap(JID.init),
            to: message[attribute: "to"].flatMap(JID.init),
            body: body,
            date: stamp.flatMap { try? Date($0, strategy: .iso8601) }
        )
    }
}
