import ArgumentParser
import KinshipCore
import KinshipKit

struct MeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "me",
        abstract: "Show your profile, with the fields the app may read.",
        discussion: """
            --json prints {"id", "name", "first_name", "last_name", "email", "link", "picture"}; a field the \
            app may not read (email without the email permission) is null.
            """
    )

    @OptionGroup var account: AccountOptions
    @Flag(help: "Print JSON instead of text.") var json = false
    @Flag(help: "Ask for the email permission in the browser if it is missing.") var ask = false

    func run() async throws {
        let client = try await account.openClient()
        if ask, await client.graph.currentToken()?.hasGranted(.email) == false {
            _ = try await client.manager.requestPermissions([.email], authType: .rerequest)
        }
        let profile = try await client.call(ask: ask, command: "kinship me") { graph throws(GraphError) in
            try await Profile.loadCurrent(using: graph)
        }
        if json {
            try JSONOutput.print(ProfileOutput(profile))
            return
        }
        print(profile.name)
        print("  id       \(profile.userID)")
        print("  email    \(profile.email ?? "not shared with this app (run `kinship me --ask` to share it)")")
        if let link = profile.link { print("  profile  \(link)") }
        if let picture = profile.pictureURL { print("  picture  \(picture)") }
        if let birthday = profile.birthday { print("  birthday \(birthday)") }
    }
}

/// `kinship me --json`: every key always present, `null` when not shared.
struct ProfileOutput: Encodable {
    let id: String
    let name: String
    @ExplicitNull var firstName: String?
    @ExplicitNull var lastName: String?
    @ExplicitNull var email: String?
    @ExplicitNull var link: String?
    @ExplicitNull var picture: String?

    init(_ profile: Profile) {
        id = profile.userID
        name = profile.name
        firstName = profile.firstName
        lastName = profile.lastName
        email = profile.email
        link = profile.link
        picture = profile.pictureURL
    }

    enum CodingKeys: String, CodingKey {
        case id, name, email, link, picture
        case firstName = "first_name"
        case lastName = "last_name"
    }
}
