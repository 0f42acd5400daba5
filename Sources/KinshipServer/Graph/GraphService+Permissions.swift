import HTTPTypes
import KinshipCore

extension GraphService {
    /// `GET /me/permissions[/NAME]`, `DELETE /me/permissions[/NAME]`.
    func permissions(_ request: GraphRequest, node: String, name: String?) async throws -> GraphResponse {
        let caller = try await caller(request)
        _ = try ownNode(node, caller)
        switch (request.method, name) {
        case (.get, let name):
            let listed = caller.authorization.permissions
                .filter { name == nil || $0.key.rawValue == name }
                .sorted { $0.key < $1.key }
                .map { JSONValue.object([("permission", .string($0.key.rawValue)), ("status", .string($0.value.rawValue))]) }
            return .json(JSONValue.object([("data", .array(listed))]))
        case (.delete, nil):
            try await platform.authorizations.revokeAll(caller.authorization.id)
            return .json(JSONValue.object([("success", true)]))
        case (.delete, let name?):
            let permission = Permission(name)
            guard PermissionCatalogue.contains(permission) else {
                throw GraphError.invalidParameter("Unknown permission \(name)")
            }
            guard PermissionCatalogue.isRevocableAlone(permission) else {
                throw GraphError.invalidParameter(
                    "public_profile cannot be revoked on its own; DELETE /me/permissions removes the app instead")
            }
            try await platform.authorizations.revoke(permission, in: caller.authorization.id)
            return .json(JSONValue.object([("success", true)]))
        default:
            throw GraphError.unknownPath(request.path)
        }
    }
}
