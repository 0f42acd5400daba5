import ArgumentParser
import KinshipServer

struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Register and list apps, and set their callbacks.",
        subcommands: [Create.self, List.self, Callbacks.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an app; prints its client_id, client_secret and redirect_uris.",
            discussion: """
                The secret is shown once: it is stored only as a hash. Every app may also redirect to \
                kinship{client_id}://authorize without registering it, and a registered http://127.0.0.1/PATH \
                redirect matches any port (RFC 8252).
                """
        )

        @OptionGroup var storage: DatabaseOptions
        @Option(help: "The name people see on the consent page.") var name: String
        @Option(name: .customLong("redirect-uri"), help: "A redirect URI; repeat for several.") var redirectURIs: [String] = []
        @Flag(help: "The app keeps its secret on a server and uses it for the code exchange; otherwise PKCE is required.")
        var confidential = false

        struct Output: Encodable {
            let clientID: String
            let clientSecret: String
            let redirectURIs: [String]
            let confidential: Bool

            enum CodingKeys: String, CodingKey {
                case clientID = "client_id"
                case clientSecret = "client_secret"
                case redirectURIs = "redirect_uris"
                case confidential
            }
        }

        func run() async throws {
            let (app, secret) = try await storage.withPlatform {
                try await $0.apps.create(name: name, redirectURIs: redirectURIs, isConfidential: confidential)
            }
            try JSONOutput.print(
                Output(clientID: app.id, clientSecret: secret, redirectURIs: app.redirectURIs, confidential: app.isConfidential)
            )
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every app (secrets are never shown); prints {\"data\": […]}.")

        @OptionGroup var storage: DatabaseOptions

        struct Entry: Encodable {
            let clientID: String
            let name: String
            let redirectURIs: [String]
            let confidential: Bool

            enum CodingKeys: String, CodingKey {
                case clientID = "client_id"
                case name
                case redirectURIs = "redirect_uris"
                case confidential
            }
        }

        func run() async throws {
            let apps = try await storage.withPlatform { try await $0.apps.list() }
            try JSONOutput.print([
                "data": apps.map { Entry(clientID: $0.id, name: $0.name, redirectURIs: $0.redirectURIs, confidential: $0.isConfidential) }
            ])
        }
    }
}
