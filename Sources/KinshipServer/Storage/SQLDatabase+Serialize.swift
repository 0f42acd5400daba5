import SQLKit

extension SQLDatabase {
    /// Makes the rest of the current write transaction run alone among the transactions that
    /// serialize on any of `keys`: for reading something and then writing on what was read (the
    /// latest post's sequence, whether a request exists the other way).
    ///
    /// SQLite runs one write transaction at a time already. On PostgreSQL each key is a
    /// transaction-level advisory lock, taken in sorted order so that two transactions never wait
    /// for each other; it holds across every process sharing the database.
    func serialize(on keys: [String]) async throws {
        guard dialect.name == "postgresql" else { return }
        for key in Set(keys).sorted() {
            try await raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: key)))").run()
        }
    }
}
