import ArgumentParser
import Foundation
import KinshipKit

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "End the login on this machine; with --revoke, remove the app from your account too.",
        discussion: """
            The login's tokens are revoked on the platform and forgotten here. Without --revoke the platform \
            still remembers that you use the app: the next login does not ask again for what you granted. \
            --revoke removes the app (every token of yours for it, on every device, stops working, and the \
            next login asks for everything again).
            """
    )

    @OptionGroup var account: AccountOptions
    @Flag(help: "Also remove the app from your account on the platform.") var revoke = false

    func run() async throws {
        let client = try await account.openClient()
        if revoke {
            try await client.call(ask: false, command: "kinship logout --revoke") { graph throws(GraphError) in
                try await graph.revokeLogin()
            }
        } else {
            do {
                try await client.manager.revokeTokens()
            } catch {
                Terminal.warn("The platform could not be told to end this login's tokens (\(error)); they are forgotten here and lapse on their own.")
            }
        }
        await client.manager.logOut()
        try? FileManager.default.removeItem(at: account.recordFile)
        print(revoke ? "Logged out, and the app was removed from your account." : "Logged out.")
    }
}
