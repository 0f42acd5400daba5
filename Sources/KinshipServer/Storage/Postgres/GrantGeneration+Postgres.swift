import Logging
import SQLKit

extension GrantGeneration {
    /// The counter of a process on PostgreSQL: its changes are announced with
    /// `pg_notify('kinship_grants', '')` on `database`, and a ``GrantNotificationListener`` moves it
    /// on the other processes' announcements.
    static func announcing(through database: Database, logger: Logger) -> GrantGeneration {
        GrantGeneration {
            do {
                try await database.read { sql in
                    try await sql.raw("SELECT pg_notify(\(bind: GrantGeneration.channel), '')").run()
                }
            } catch {
                // The database cannot be reached: the other processes' listeners have lost their
                // connections too, and read every grant until they are back.
                logger.warning("Cannot announce a grant change to the other processes", metadata: ["error": "\(error)"])
            }
        }
    }
}
