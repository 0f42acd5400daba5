import ArgumentParser
import KinshipServer

extension AppsCommand {
    /// `kinship apps callbacks`: an app's deauthorize and data deletion URLs, and its signing secret.
    struct Callbacks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "callbacks",
            abstract: "Set an app's deauthorize and data deletion callback URLs; prints them, and a new signing secret once.",
            discussion: """
                Kinship POSTs signed_request=… to the deauthorize URL when a person removes the app, and to \
                the data deletion URL when a person deletes their account, retrying for a day until the app's \
                server answers 2xx. The signed_request is signed (HMAC-SHA256) with the app's signing secret, \
                which is made the first time callbacks are set up and printed that once as signing_secret: \
                keep it on the app's server. --rotate-signing-secret makes a new one; the old one stops at once. \
                URLs must be https (http only to 127.0.0.1, [::1] or localhost); pass "" to remove one.
                """
        )

        @OptionGroup var options: SecretStorageOptions
        @Argument(help: "The app's client id.") var clientID: String
        @Option(name: .customLong("deauthorize-url"), help: "Where to POST when a person removes the app.") var deauthorizeURL: String?
        @Option(name: .customLong("data-deletion-url"), help: "Where to POST when a person deletes their account.")
        var dataDeletionURL: String?
        @Flag(name: .customLong("rotate-signing-secret"), help: "Make a new signing secret (printed once).")
        var rotateSigningSecret = false

        struct Output: Encodable {
            let clientID: String
            @ExplicitNull var deauthorizeCallbackURL: String?
            @ExplicitNull var dataDeletionCallbackURL: String?
            /// Present only when a new one was made.
            let signingSecret: String?

            enum CodingKeys: String, CodingKey {
                case clientID = "client_id"
                case deauthorizeCallbackURL = "deauthorize_callback_url"
                case dataDeletionCallbackURL = "data_deletion_callback_url"
                case signingSecret = "signing_secret"
            }
        }

        func run() async throws {
            let change = AppCallbackSettings.Change(
                deauthorizeURL: deauthorizeURL,
                dataDeletionURL: dataDeletionURL,
                rotateSigningSecret: rotateSigningSecret
            )
            let (app, signingSecret) = try await options.withPlatform { platform, secret in
                do {
                    return try await AppCallbackSettings(platform: platform, secret: secret).update(appID: clientID, change)
                } catch let error as AppError {
                    throw ValidationError(error.description)
                }
            }
            try JSONOutput.print(
                Output(
                    clientID: app.id,
                    deauthorizeCallbackURL: app.deauthorizeCallbackURL,
                    dataDeletionCallbackURL: app.dataDeletionCallbackURL,
                    signingSecret: signingSecret
                )
            )
        }
    }
}
