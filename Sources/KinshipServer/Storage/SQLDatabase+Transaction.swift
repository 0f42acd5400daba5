import SQLKit

extension SQLDatabase {
    /// Runs `body` between `begin` and `COMMIT`, on this one connection; `ROLLBACK` when it throws.
    func transaction<Result>(beginning begin: String, _ body: (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await raw(SQLQueryString(begin)).run()
        do {
            let result = try await body(self)
            try await raw("COMMIT").run()
            return result
        } catch {
            // After a failed COMMIT the transaction may be gone already; the ROLLBACK then fails harmlessly.
            try? await raw("ROLLBACK").run()
            throw error
        }
    }
}
