import ArgumentParser
import Foundation
import KinshipServer

/// `kinship keys`: the keys that sign OpenID Connect id_tokens.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List and rotate the keys that sign id_tokens.",
        discussion: """
            Kinship makes its first RS256 key when it first starts, keeps every key in the database sealed \
            with the server secret, and publishes the public halves at /.well-known/jwks.json. A rotated key \
            stops signing when its successor activates and stays published until the id_tokens it signed \
            have expired.
            """,
        subcommands: [List.self, Rotate.self]
    )

    /// The signing keys of `platform`, sealed with `secret`.
    static func keys(_ platform: Platform, _ secret: ServerSecret) -> SigningKeys {
        SigningKeys(platform: platform, secret: secret, idTokenLifetime: ServerConfiguration.defaultIDTokenLifetime)
    }

    /// One key as the commands print it.
    struct Entry: Encodable {
        let kid: String
        let algorithm: String
        let status: String
        let createdAt: String
        let activatesAt: String
        @ExplicitNull var retiredAt: String?
        @ExplicitNull var publishedUntil: String?

        init(_ key: SigningKeyInfo) {
            kid = key.kid
            algorithm = key.algorithm
            status = key.status.rawValue
            createdAt = Self.date(key.createdAt)
            activatesAt = Self.date(key.activatesAt)
            retiredAt = key.retiredAt.map(Self.date)
            publishedUntil = key.publishedUntil.map(Self.date)
        }

        enum CodingKeys: String, CodingKey {
            case kid, algorithm, status
            case createdAt = "created_at"
            case activatesAt = "activates_at"
            case retiredAt = "retired_at"
            case publishedUntil = "published_until"
        }

        private static func date(_ seconds: Int) -> String {
            Date(timeIntervalSince1970: TimeInterval(seconds)).ISO8601Format()
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the signing keys, oldest first; prints {\"data\": […]} with each key's status.",
            discussion: "pending: published, not signing yet · signing · retired: published, no longer signing · expired."
        )

        @OptionGroup var options: SecretStorageOptions

        func run() async throws {
            let keys = try await options.withPlatform { try await KeysCommand.keys($0, $1).list() }
            try JSONOutput.print(["data": keys.map(Entry.init)])
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new signing key; prints it.",
            discussion: """
                The new key is published at once and starts signing after --activate-in seconds (10 minutes by \
                default), so that relying parties which cached the key set learn it first. Use --now when a key \
                has leaked: the new key signs at once (relying parties refetch the set when they meet its kid).
                """
        )

        @OptionGroup var options: SecretStorageOptions
        @Option(help: "Seconds until the new key signs.") var activateIn = SigningKeys.defaultActivationDelay
        @Flag(help: "Sign with the new key at once.") var now = false

        func validate() throws {
            guard activateIn >= 0 else { throw ValidationError("--activate-in takes a number of seconds, 0 or more.") }
        }

        func run() async throws {
            let key = try await options.withPlatform { try await KeysCommand.keys($0, $1).rotate(activationDelay: now ? 0 : activateIn) }
            try JSONOutput.print(Entry(key))
        }
    }
}
