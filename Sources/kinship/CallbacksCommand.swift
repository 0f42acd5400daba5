import ArgumentParser
import Foundation
import KinshipServer

/// `kinship callbacks`: the outbox of app callbacks.
struct CallbacksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "callbacks",
        abstract: "See app callback deliveries, and ask apps to delete a person's data.",
        discussion: """
            Callbacks wait in the database until a running `kinship serve` delivers them; each process delivers, \
            and a callback is claimed by one at a time. Set an app's callback URLs with `kinship apps callbacks`.
            """,
        subcommands: [List.self, RequestDataDeletion.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the most recent callbacks, newest first; prints {\"data\": […]}."
        )

        @OptionGroup var storage: DatabaseOptions
        @Option(name: .customLong("app"), help: "Only this app's callbacks (its client id).") var appID: String?
        @Option(help: "How many to show.") var limit = 50

        struct Entry: Encodable {
            let id: String
            let appID: String
            let userID: String
            let kind: String
            let status: String
            let url: String
            let attempts: Int
            let createdAt: Int
            @ExplicitNull var deliveredAt: Int?
            @ExplicitNull var nextAttemptAt: Int?
            @ExplicitNull var lastStatus: Int?
            @ExplicitNull var lastError: String?
            @ExplicitNull var statusURL: String?
            @ExplicitNull var confirmationCode: String?

            init(_ delivery: CallbackDelivery) {
                id = delivery.id
                appID = delivery.appId
                userID = delivery.userId
                kind = delivery.kind.rawValue
                status = delivery.status.rawValue
                url = delivery.url
                attempts = delivery.attempts
                createdAt = delivery.createdAt
                deliveredAt = delivery.deliveredAt
                nextAttemptAt = delivery.status == .pending ? delivery.nextAttemptAt : nil
                lastStatus = delivery.lastStatus
                lastError = delivery.lastError
                statusURL = delivery.statusUrl
                confirmationCode = delivery.confirmationCode
            }

            enum CodingKeys: String, CodingKey {
                case id, kind, status, url, attempts
                case appID = "app_id"
                case userID = "user_id"
                case createdAt = "created_at"
                case deliveredAt = "delivered_at"
                case nextAttemptAt = "next_attempt_at"
                case lastStatus = "last_status"
                case lastError = "last_error"
                case statusURL = "status_url"
                case confirmationCode = "confirmation_code"
            }
        }

        func run() async throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be 1 to 1000.") }
            let deliveries = try await storage.withPlatform { try await $0.callbacks.recent(appID: appID, limit: limit) }
            try JSONOutput.print(["data": deliveries.map(Entry.init)])
        }
    }

    struct RequestDataDeletion: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "request-data-deletion",
            abstract: "Send the data deletion callback of every app a person has used; prints {\"queued\": N}.",
            discussion: "What deleting an account will send. The apps' answers ({url, confirmation_code}) show in `kinship callbacks list`."
        )

        @OptionGroup var storage: DatabaseOptions
        @Option(name: .customLong("user"), help: "The person's user id.") var userID: String

        func run() async throws {
            let queued = try await storage.withPlatform { platform in
                guard try await platform.users.find(id: userID) != nil else { throw ValidationError("No person has the user id \(userID).") }
                return try await platform.callbacks.requestDataDeletion(userID: userID)
            }
            try JSONOutput.print(["queued": queued])
        }
    }
}
