import ArgumentParser
import KinshipServer

struct FriendsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "friends", abstract: "Manage friendships directly.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make two people friends (friendship is mutual); prints {\"success\": true}.")

        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "One person's user id.") var userID: String
        @Argument(help: "The other person's user id.") var friendID: String

        func run() async throws {
            try await storage.withPlatform { try await $0.friends.befriend(userID, friendID) }
            try JSONOutput.print(["success": true])
        }
    }
}
