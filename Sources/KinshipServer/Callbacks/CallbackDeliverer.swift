import AsyncHTTPClient
import Foundation
import KinshipCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// Delivers the outbox's app callbacks from a `kinship serve` process: claims what is due, POSTs
/// `signed_request=…` to each app's URL (signed at that moment with the app's signing secret),
/// and records the answer — a 2xx delivers it, anything else is retried with backoff for a day.
///
/// Every process runs one; claims keep two from delivering the same callback at once. Redirects
/// are not followed: the registered URL is the one the app answers at.
struct CallbackDeliverer: Service {
    let outbox: CallbackOutbox
    let apps: AppStore
    let settings: AppCallbackSettings
    let clock: any WallClock
    let configuration: ServerConfiguration.Callbacks
    let metrics: ServerMetrics
    let logger: Logger
    /// This process's name on its claims.
    let worker = "deliverer-" + Base64URL.random(byteCount: 9)

    /// Seconds a claim holds: longer than an attempt can take.
    var lease: Int { configuration.timeout * 3 + 30 }
    /// The most of an app's answer that is read.
    static let answerLimit = 64 * 1024

    func run() async throws {
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(Int64(configuration.timeout))))
        )
        // A batch under way is finished on a graceful shutdown (it takes at most `timeout`); only
        // the wait between batches is cut short.
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let handled = await deliverDue(client)
            if handled == 0 { try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(configuration.pollInterval)) } }
        }
        try await client.shutdown()
    }

    /// Claims and delivers one batch; returns how many callbacks it handled.
    func deliverDue(_ client: HTTPClient) async -> Int {
        let due: [CallbackDelivery]
        do {
            due = try await outbox.claim(worker: worker, limit: configuration.batchSize, lease: lease)
        } catch {
            logger.warning("Cannot read the callback outbox; trying again shortly", metadata: ["error": "\(error)"])
            return 0
        }
        await withTaskGroup(of: Void.self) { group in
            for delivery in due {
                group.addTask { await deliver(delivery, client) }
            }
        }
        return due.count
    }

    private func deliver(_ delivery: CallbackDelivery, _ client: HTTPClient) async {
        var metadata: Logger.Metadata = [
            "callback.id": "\(delivery.id)", "callback.kind": "\(delivery.kind.rawValue)", "app.id": "\(delivery.appId)",
            "user.id": "\(delivery.userId)", "url": "\(delivery.url)", "attempt": "\(delivery.attempts)",
        ]
        do {
            guard let app = try await apps.find(id: delivery.appId), let secret = settings.signingSecret(of: app) else {
                try await fail(delivery, status: nil, "The app's signing secret cannot be unsealed with this server secret.", &metadata)
                return
            }
            var request = HTTPClientRequest(url: delivery.url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.headers.add(name: "User-Agent", value: "Kinship-Callbacks/1.0")
            let signed = SignedRequest(issuedAt: clock.now, userID: delivery.userId).signed(with: secret)
            request.body = .bytes(ByteBuffer(string: FormParameters([("signed_request", signed)]).formEncoded))
            let response: HTTPClientResponse
            let answer: ByteBuffer
            do {
                response = try await client.execute(request, timeout: .seconds(Int64(configuration.timeout)))
                answer = try await response.body.collect(upTo: Self.answerLimit)
            } catch {
                // A process stopped mid-delivery says nothing about the app: its claim runs out and
                // another attempt follows.
                guard !Task.isCancelled else { return }
                metadata["error"] = "\(error)"
                try await fail(delivery, status: nil, "The app's server could not be reached: \(Self.describe(error)).", &metadata)
                return
            }
            let status = Int(response.status.code)
            guard (200..<300).contains(status) else {
                try await fail(delivery, status: status, "The app's server answered HTTP \(status).", &metadata)
                return
            }
            var note: String?
            var deletion: DataDeletionAnswer?
            if delivery.kind == .dataDeletion {
                deletion = try? JSONDecoder().decode(DataDeletionAnswer.self, from: Data(answer.readableBytesView))
                if deletion == nil { note = "The answer was not JSON {\"url\", \"confirmation_code\"}." }
            }
            try await outbox.recordDelivered(
                delivery,
                worker: worker,
                status: status,
                note: note,
                statusURL: deletion?.url,
                confirmationCode: deletion?.confirmationCode
            )
            metadata["http.status"] = "\(status)"
            logger.info("App callback delivered", metadata: metadata)
            if let note {
                logger.warning("App callback answer is not what Facebook-style apps send", metadata: metadata.merging(["problem": "\(note)"]) { $1 })
            }
        } catch {
            metadata["error"] = "\(error)"
            logger.warning("Could not record an app callback's outcome; it will be tried again when its claim runs out", metadata: metadata)
        }
    }

    private func fail(_ delivery: CallbackDelivery, status: Int?, _ reason: String, _ metadata: inout Logger.Metadata) async throws {
        metadata["reason"] = "\(reason)"
        metrics.callbackFailed(kind: delivery.kind.rawValue)
        switch try await outbox.recordFailure(delivery, worker: worker, status: status, error: reason) {
        case .failed:
            logger.error("App callback given up after a day of retries", metadata: metadata)
        default:
            metadata["retry_in_s"] = "\(CallbackOutbox.backoff(afterAttempt: delivery.attempts))"
            logger.notice("App callback failed; it will be retried", metadata: metadata)
        }
    }

    /// An HTTP client error in words a person can act on; the error itself goes to the log only.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout: "no answer in time"
        case let error as HTTPClientError where error == .connectTimeout: "the connection timed out"
        case let error as IOError where error.errnoCode == ECONNREFUSED: "the connection was refused"
        case is NIOConnectionError: "no connection could be made"
        case let error as HTTPClientError where error == .remoteConnectionClosed: "the connection was closed before an answer"
        case let error as HTTPClientError where error == .invalidURL || error == .emptyHost: "the callback URL is not valid; set it again"
        default: "the request failed (the server log has the details)"
        }
    }
}

/// What an app answers a data deletion callback with (Facebook's shape).
private struct DataDeletionAnswer: Decodable {
    let url: String
    let confirmationCode: String

    enum CodingKeys: String, CodingKey {
        case url
        case confirmationCode = "confirmation_code"
    }
}
