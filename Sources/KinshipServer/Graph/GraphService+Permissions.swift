import HTTPTypes
import KinshipCore

extension GraphService {
    /// `GET /me/permissions[/NAME]`, `DELETE /me/permissions[/NAME]` with the person's token; with
    /// the app's access token, the same on `/{user-id}/permissions` for a person who uses the app.
    /// A person removing the app sends its deauthorize callback; the app removing itself does not.
    func permissions(_ request: GraphRequest, node: String, name: String?) async throws -> GraphResponse {
        let login: Authorization
        let byPerson: Bool
        switch try await anyCaller(request) {
        case .person(let grant):
            _ = try ownNode(node, grant)
            (login, byPerson) = (grant.authorization, true)
        case .app(let app):
            guard node != "me" else { throw GraphError.userTokenRequired(for: "/me/permissions") }
            guard let active = try await platform.authorizations.active(userID: node, appID: app.id) else {
                throw GraphError.unknownObject(node)
            }
            (login, byPerson) = (active, false)
        }
        switch (request.method, name) {
        case (.get, let name):
            let listed = login.permissions
                .filter { name == nil || $0.key.rawValue == name }
                .sorted { $0.key < $1.key }
                .map { JSONValue.object([("permission", .string($0.key.rawValue)), ("status", .string($0.value.rawValue))]) }
            return .json(JSONValue.object([("data", .array(listed))]))
        case (.delete, nil):
            try await platform.authorizations.revokeAll(login.id, notifyingApp: byPerson)
            return .json(JSONValue.object([("success", true)]))
        case (.delete, let name?):
            let permission = Permission(name)
            guard PermissionCatalogue.contains(permission) else {
                throw GraphError.invalidParameter("Unknown permission \(name)")
            }
            guard PermissionCatalogue.isRevocableAlone(permission) else {
                throw GraphError.invalidParameter(
                    "public_profile cannot be revoked on its own; DELETE /me/permissions removes the app instead"
                )
            }
            try await platform.authorizations.revoke(permission, in: login.id)
            return .json(JSONValue.object([("success", true)]))
        default:
            throw GraphError.unknownPath(request.path)
        }
    }
}
