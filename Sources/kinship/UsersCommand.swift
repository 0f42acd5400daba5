import ArgumentParser
import Foundation
import KinshipServer

struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Create and list accounts, set pictures, make administrators, suspend accounts.",
        subcommands: [Create.self, List.self, SetPicture.self, GrantAdmin.self, RevokeAdmin.self, Suspend.self, Lift.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account; prints {\"id\": \"…\"}.",
            discussion: "First and last name are taken from --name when not given (\"Ada Lovelace\" → Ada, Lovelace)."
        )

        @OptionGroup var storage: DatabaseOptions
        @Option(help: "The full name shown to others.") var name: String
        @Option(help: "The email address; also a login.") var email: String
        @Option(help: "At least 8 characters; stored only as a bcrypt hash.") var password: String
        @Option(help: "An optional second login: letters, digits, dots, underscores.") var username: String?
        @Option(name: .customLong("first-name")) var firstName: String?
        @Option(name: .customLong("middle-name")) var middleName: String?
        @Option(name: .customLong("last-name")) var lastName: String?
        @Option var gender: String?
        @Option(help: "A locale such as en_GB.") var locale: String?
        @Option(help: "YYYY-MM-DD.") var birthday: String?
        @Option(help: "The town the person comes from.") var hometown: String?
        @Option(help: "The town the person lives in.") var location: String?
        @Flag(help: "Make the person an administrator: they see every app and person at /admin and may suspend accounts.")
        var admin = false

        func run() async throws {
            let newUser = NewUser(
                name: name,
                email: email,
                password: password,
                username: username,
                firstName: firstName,
                middleName: middleName,
                lastName: lastName,
                gender: gender,
                locale: locale,
                birthday: birthday,
                hometown: hometown,
                location: location
            )
            let admin = self.admin
            let user = try await storage.withPlatform { platform in
                let user = try await platform.users.create(newUser)
                if admin { _ = try await platform.users.setAdmin(userID: user.id, true) }
                return user
            }
            try JSONOutput.print(["id": user.id])
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every account; prints {\"data\": […]}.")

        @OptionGroup var storage: DatabaseOptions

        struct Entry: Encodable {
            let id: String
            let name: String
            let email: String
            let username: String?
            let isAdmin: Bool
            let suspended: Bool

            enum CodingKeys: String, CodingKey {
                case id, name, email, username, suspended
                case isAdmin = "is_admin"
            }
        }

        func run() async throws {
            let users = try await storage.withPlatform { try await $0.users.list() }
            try JSONOutput.print([
                "data": users.map {
                    Entry(id: $0.id, name: $0.name, email: $0.email, username: $0.username, isAdmin: $0.isAdmin, suspended: $0.suspendedAt != nil)
                }
            ])
        }
    }

    struct SetPicture: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-picture",
            abstract: "Upload a person's profile picture (PNG or JPEG, at most 2 MiB and 4096 pixels a side); prints {\"success\": true}."
        )

        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The person's user id.") var userID: String
        @Argument(help: "The image file.") var file: String

        func run() async throws {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw ValidationError("Cannot read \(file): \(error.localizedDescription)")
            }
            try await storage.withPlatform { try await $0.pictures.save(userID: userID, imageData: data) }
            try JSONOutput.print(["success": true])
        }
    }
}
