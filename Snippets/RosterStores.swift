// Keep the roster between runs, so an unchanged friend list costs an empty answer.

// snippet.hide
import Foundation
import KinshipXMPP

let configuration = XMPPConfiguration(jid: JID("ada@chat.example.com")!, password: "secret")

// snippet.show
var options = XMPPClient.Options()
options.rosterStore = FileRosterStore(
    folder: FileManager.default.temporaryDirectory.appendingPathComponent("rosters")
) { problem in
    print("Roster store: \(problem)")  // An unreadable file means one full fetch, nothing worse.
}
let client = XMPPClient(configuration: configuration, options: options)
try await client.connect()
// snippet.hide
await client.disconnect()
