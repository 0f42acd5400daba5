import SQLKit

/// One step of the schema, applied once and recorded in `schema_migrations`.
///
/// Statements are written in the SQL that SQLite and PostgreSQL share, so both engines have the
/// same tables. A migration that needs engine-specific SQL says so in ``statements(for:)``.
struct Migration: Sendable {
    let version: Int
    let name: String
    /// Work the statements cannot express (filling a new table with what Swift computes from the
    /// rows there), run after them in the same transaction.
    let afterwards: (@Sendable (any SQLDatabase) async throws -> Void)?
    let statements: @Sendable (Database.Engine) -> [String]

    init(
        version: Int,
        name: String,
        afterwards: (@Sendable (any SQLDatabase) async throws -> Void)? = nil,
        statements: @escaping @Sendable (Database.Engine) -> [String]
    ) {
        self.version = version
        self.name = name
        self.afterwards = afterwards
        self.statements = statements
    }

    func statements(for engine: Database.Engine) -> [String] { statements(engine) }
}
