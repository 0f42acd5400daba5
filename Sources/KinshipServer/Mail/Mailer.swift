import Atomics
import Logging
import ServiceLifecycle

/// Sends the platform's mail in the background, so a page that sends one answers at once and in
/// the same time whether or not a message goes out (a reset link must not tell who has an
/// account). Messages wait in memory, at most ``capacity``; a failed send is tried twice more.
/// A message still waiting when the process stops is sent before it exits, without retries.
final class Mailer: Service, Sendable {
    /// How many messages may wait; more are refused (and logged) rather than held without bound.
    static let capacity = 1_000
    /// The waits before the second and third attempt.
    static let retryDelays: [Duration] = [.seconds(2), .seconds(10)]

    private let client: SMTPClient
    private let senderName: String
    private let logger: Logger
    private let queue: AsyncStream<MailMessage>
    private let waiting: AsyncStream<MailMessage>.Continuation
    private let stopping = ManagedAtomic(false)

    init(client: SMTPClient, senderName: String, logger: Logger) {
        self.client = client
        self.senderName = senderName
        self.logger = logger
        (queue, waiting) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(Self.capacity))
    }

    /// Queues a message; returns `false` when the queue is full or the process is stopping.
    @discardableResult
    func post(_ message: MailMessage) -> Bool {
        switch waiting.yield(message) {
        case .enqueued:
            return true
        case .dropped, .terminated:
            logger.error(
                "Mail not queued: the queue is full or the server is stopping",
                metadata: ["mail.purpose": "\(message.purpose)", "user.id": "\(message.userID)"]
            )
            return false
        @unknown default:
            return false
        }
    }

    func run() async throws {
        await withGracefulShutdownHandler {
            for await message in queue { await deliver(message) }
        } onGracefulShutdown: { [stopping, waiting] in
            stopping.store(true, ordering: .relaxed)
            waiting.finish()
        }
    }

    private func deliver(_ message: MailMessage) async {
        let metadata: Logger.Metadata = ["mail.purpose": "\(message.purpose)", "user.id": "\(message.userID)"]
        for attempt in 0...Self.retryDelays.count {
            do {
                let answer = try await client.send(message, senderName: senderName)
                logger.info("Mail sent", metadata: metadata.merging(["smtp.answer": "\(answer.prefix(120))"]) { $1 })
                return
            } catch {
                let last = attempt == Self.retryDelays.count || stopping.load(ordering: .relaxed)
                logger.log(
                    level: last ? .error : .warning,
                    "Mail not sent\(last ? "; giving up" : ", will retry")",
                    metadata: metadata.merging(["error": "\(error)", "mail.attempt": "\(attempt + 1)"]) { $1 }
                )
                if last { return }
                try? await Task.sleep(for: Self.retryDelays[attempt])
            }
        }
    }
}
