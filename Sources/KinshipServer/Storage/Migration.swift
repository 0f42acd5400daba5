import SQLKit

/// One step of the schema, applied once and recorded in `schema_migrations`.
///
/// Statements are written in the SQL that SQLite and PostgreSQL share, so both engines have the
/// same tables. A migration that needs engine-specific SQL says so in ``statements(for:)``.
struct Migration: Sendable {
    let version: Int
    let name: String
    let statements: @Sendable (Database.Engine) -> [String]

    func statements(for engine: Database.Engine) -> [String] { statements(engine) }
}
