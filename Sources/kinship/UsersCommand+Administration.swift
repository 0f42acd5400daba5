import ArgumentParser
import KinshipServer

extension UsersCommand {
    /// The account a command names: an email, a username or a user id.
    struct AccountArgument: ParsableArguments {
        @Argument(help: "The person's email, username or user id.") var account: String

        func user(in platform: Platform) async throws -> UserRecord {
            if let user = try await platform.users.find(login: account) { return user }
            if let user = try await platform.users.find(id: account) { return user }
            throw ValidationError("No account has the email, username or id \(account). `kinship users list` lists them.")
        }
    }

    struct GrantAdmin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant-admin",
            abstract: "Make a person an administrator (they see /admin); prints {\"id\", \"is_admin\": true}."
        )

        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var target: AccountArgument

        func run() async throws {
            let id = try await storage.withPlatform { platform in
                let user = try await target.user(in: platform)
                _ = try await platform.users.setAdmin(userID: user.id, true)
                return user.id
            }
            try JSONOutput.print(AdminChange(id: id, isAdmin: true))
        }
    }

    struct RevokeAdmin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-admin",
            abstract: "Take a person's administrator role away; prints {\"id\", \"is_admin\": false}."
        )

        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var target: AccountArgument

        func run() async throws {
            let id = try await storage.withPlatform { platform in
                let user = try await target.user(in: platform)
                _ = try await platform.users.setAdmin(userID: user.id, false)
                return user.id
            }
            try JSONOutput.print(AdminChange(id: id, isAdmin: false))
        }
    }

    struct Suspend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Suspend an account: every token and browser session stops at once, and it cannot log in; prints {\"id\", \"changed\"}.",
            discussion: "`changed` is false when the account was suspended already. `kinship users lift` ends a suspension."
        )

        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var target: AccountArgument

        func run() async throws {
            let (id, changed) = try await storage.withPlatform { platform in
                let user = try await target.user(in: platform)
                return (user.id, try await platform.users.suspend(userID: user.id))
            }
            try JSONOutput.print(Change(id: id, changed: changed))
        }
    }

    struct Lift: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lift an account's suspension: it may log in again; prints {\"id\", \"changed\"}."
        )

        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var target: AccountArgument

        func run() async throws {
            let (id, changed) = try await storage.withPlatform { platform in
                let user = try await target.user(in: platform)
                return (user.id, try await platform.users.lift(userID: user.id))
            }
            try JSONOutput.print(Change(id: id, changed: changed))
        }
    }

    private struct AdminChange: Encodable {
        let id: String
        let isAdmin: Bool

        enum CodingKeys: String, CodingKey {
            case id
            case isAdmin = "is_admin"
        }
    }

    private struct Change: Encodable {
        let id: String
        let changed: Bool
    }
}
