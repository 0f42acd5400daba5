import ArgumentParser
import Foundation
import KinshipCore
import KinshipKit

struct PermissionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permissions",
        abstract: "See and give back the permissions the app holds.",
        subcommands: [List.self, Revoke.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List each permission and whether you granted or declined it.",
            discussion: #"--json prints {"data": [{"permission", "status"}]} as the Graph API does."#
        )

        @OptionGroup var account: AccountOptions
        @Flag(help: "Print JSON instead of text.") var json = false

        func run() async throws {
            let client = try await account.openClient()
            let statuses = try await client.call(ask: false, command: "kinship permissions") { graph throws(GraphError) in
                try await graph.permissions()
            }
            if json {
                try JSONOutput.print(["data": statuses.map { ["permission": $0.permission.rawValue, "status": $0.status.rawValue] }])
                return
            }
            let width = statuses.map(\.permission.rawValue.count).max() ?? 0
            for status in statuses {
                print(status.permission.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0) + status.status.rawValue)
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give one permission back; the app works as if it was never granted."
        )

        @OptionGroup var account: AccountOptions
        @Argument(help: "The permission, e.g. email.") var name: String

        func run() async throws {
            let client = try await account.openClient()
            let permission = Permission(name)
            try await client.call(ask: false, command: "kinship permissions revoke") { graph throws(GraphError) in
                try await graph.revoke(permission)
            }
            print("Revoked \(name). Ask for it again with `kinship login --permissions \(name)`.")
        }
    }
}
