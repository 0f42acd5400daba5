/// A roster result as Prosody sends it, with `count` items, inside a stream: the input of the
/// parse benchmark. Names mix Latin, accented and Chinese text; about a third are in a group.
enum RosterRecording {
    static func make(count: Int) -> [UInt8] {
        var text =
            "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' "
            + "id='b8a5c2' from='example.com' version='1.0' xml:lang='en'>"
            + "<iq type='result' to='ada@example.com/kinship' id='roster-1'><query xmlns='jabber:iq:roster' ver='5001'>"
        let names = ["Zhang Wei", "Émile Zola", "张伟", "Grace Hopper", "O'Brien & Sons", "Łukasz", "李娜", "Ada Lovelace"]
        let subscriptions = ["both", "to", "from", "none"]
        for index in 0..<count {
            let name = names[index % names.count].replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "'", with: "&apos;")
            text += "<item jid='contact\(index)@example.com' subscription='\(subscriptions[index % 4])' name='\(name) \(index)'"
            text += index % 4 == 3 ? " ask='subscribe'" : ""
            text += index % 3 == 0 ? "><group>Friends</group><group>Team \(index % 7)</group></item>" : "/>"
        }
        text += "</query></iq></stream:stream>"
        return Array(text.utf8)
    }
}
