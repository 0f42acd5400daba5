/// The callbacks an app may register, as Facebook's apps do.
public enum CallbackKind: String, Sendable, Codable, CaseIterable {
    /// A person removed the app (Graph `DELETE /me/permissions`, the apps page, `kinship logout --revoke`).
    case deauthorize
    /// A person asked for the data the app holds about them to be deleted (account deletion).
    case dataDeletion = "data_deletion"

    /// The `apps` column that holds this callback's URL.
    var urlColumn: String {
        switch self {
        case .deauthorize: "deauthorize_callback_url"
        case .dataDeletion: "data_deletion_callback_url"
        }
    }
}
