import ArgumentParser
import KinshipServer

struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "Create and list accounts.", subcommands: [Create.self, List.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account; prints {\"id\": \"…\"}.",
            discussion: "First and last name are taken from --name when not given (\"Ada Lovelace\" → Ada, Lovelace).")

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

        func run() async throws {
            let newUser = NewUser(
                name: name, email: email, password: password, username: username, firstName: firstName,
                middleName: middleName, lastName: lastName, gender: gender, locale: locale, birthday: birthday)
            let user = try await storage.withPlatform { try await $0.users.create(newUser) }
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
        }

        func run() async throws {
            let users = try await storage.withPlatform { try await $0.users.list() }
            try JSONOutput.print(["data": users.map { Entry(id: $0.id, name: $0.name, email: $0.email, username: $0.username) }])
        }
    }
}
