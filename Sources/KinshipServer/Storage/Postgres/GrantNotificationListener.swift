import Logging
import NIOPosix
import PostgresKit
import ServiceLifecycle

/// Keeps a `kinship serve` process on PostgreSQL hearing the other processes' grant changes: one
/// connection of its own does `LISTEN kinship_grants`, and each notification moves the process's
/// ``GrantGeneration``, which empties its cached token checks.
///
/// While the connection is down the generation is told so, and every token check reads the
/// database; the listener reconnects after ``retryDelay`` (each failure in a row waits twice as
/// long, up to 30 s) and, once listening again, lets checks be cached again.
struct GrantNotificationListener: Service {
    let configuration: SQLPostgresConfiguration
    let generation: GrantGeneration
    /// The pause before the first reconnection attempt.
    let retryDelay: Duration
    let logger: Logger

    func run() async throws {
        var failures = 0
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            var reason = "the connection ended"
            do {
                try await listenUntilLost()
                failures = 0
            } catch {
                failures += 1
                reason = DatabaseUnavailable(error)?.reason ?? String(describing: error)
            }
            generation.listenerStopped()
            guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
            if failures <= 1 || failures % 10 == 0 {
                logger.warning(
                    "Not hearing other processes' grant changes; every token check reads the database until this is back",
                    metadata: ["reason": "\(reason)", "failures_in_a_row": "\(failures)"]
                )
            }
            let pause = min(retryDelay * (1 << min(max(failures - 1, 0), 6)), .seconds(30))
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
        }
    }

    /// Connects, listens, and follows notifications until the connection ends or the service stops.
    private func listenUntilLost() async throws {
        var core = configuration.coreConfiguration
        core.options.additionalStartupParameters.append(("application_name", generation.listenerName))
        core.options.connectTimeout = .seconds(3)
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(),
            configuration: core,
            id: 0,
            logger: logger
        ).get()
        do {
            try await cancelWhenGracefulShutdown {
                try await connection.listen(on: GrantGeneration.channel) { notifications in
                    generation.listenerStarted()
                    logger.debug("Hearing other processes' grant changes", metadata: ["application_name": "\(generation.listenerName)"])
                    for try await _ in notifications {
                        generation.changedElsewhere()
                    }
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }
}
