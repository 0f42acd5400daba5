import Foundation
import KinshipCore

extension GraphService {
    /// The most objects one `?ids=` lookup may name, as on Facebook.
    static let idsLimit = 50

    /// `GET /{id}`: a person (`me`, or anyone the caller may see) or an app.
    func node(_ request: GraphRequest, id: String) async throws -> GraphResponse {
        let caller = try await anyCaller(request)
        let selection = try FieldSelection(parsing: request.parameters["fields"], default: ProfileField.defaults)
        guard let object = try await object(id, caller, selection, request) else { throw GraphError.unknownObject(id) }
        return .json(object)
    }

    /// `GET /?ids=A,B&fields=…`: several objects in one call, keyed by the ids as given. One that
    /// does not exist, or that the caller may not see, fails the call (`803`, naming every such id),
    /// as on Facebook.
    func objects(_ request: GraphRequest) async throws -> GraphResponse {
        guard let list = request.parameters["ids"] else {
            throw GraphError.unknownPath("/ (name the objects to read: ?ids=ID1,ID2)")
        }
        var ids: [String] = []
        for part in list.split(separator: ",") {
            let id = part.trimmingCharacters(in: .whitespaces)
            if !id.isEmpty, !ids.contains(id) { ids.append(id) }
        }
        guard !ids.isEmpty else { throw GraphError.invalidParameter("ids names no object") }
        guard ids.count <= Self.idsLimit else {
            throw GraphError.invalidParameter("ids names \(ids.count) objects; at most \(Self.idsLimit) can be read at once")
        }
        let caller = try await anyCaller(request)
        let selection = try FieldSelection(parsing: request.parameters["fields"], default: ProfileField.defaults)
        var found: [(String, JSONValue)] = []
        var missing: [String] = []
        for id in ids {
            if let object = try await object(id, caller, selection, request) {
                found.append((id, object))
            } else {
                missing.append(id)
            }
        }
        guard missing.isEmpty else { throw GraphError.unknownObject(missing.joined(separator: ",")) }
        return .json(JSONValue.object(found))
    }

    /// The object `id` names as the caller may see it, or `nil` when there is none it may see.
    ///
    /// A person's own node shows what they granted the app; another person shows their public
    /// fields to a friend or someone using the same app; with an app access token, a person who
    /// uses the app shows what they granted it. An app shows its id and name to any caller.
    private func object(
        _ id: String,
        _ caller: GraphCaller,
        _ selection: FieldSelection,
        _ request: GraphRequest
    )
        async throws -> JSONValue?
    {
        switch caller {
        case .person(let grant) where id == "me" || id == grant.user.id:
            return try await profiles.render(grant.user, selection, baseURL: request.baseURL) {
                grant.authorization.hasGranted($0.permission)
            }
        case .app where id == "me":
            throw GraphError.userTokenRequired(for: "/me")
        default:
            break
        }
        if let user = try await platform.users.find(id: id) {
            switch caller {
            case .person(let grant):
                guard try await isVisible(user, to: grant) else { return nil }
                return try await profiles.render(user, selection, baseURL: request.baseURL) { $0.isPublic }
            case .app(let app):
                guard let login = try await platform.authorizations.active(userID: user.id, appID: app.id) else { return nil }
                return try await profiles.render(user, selection, baseURL: request.baseURL) { login.hasGranted($0.permission) }
            }
        }
        guard let app = try await platform.apps.find(id: id) else { return nil }
        return try Self.render(app, selection)
    }

    /// Another person is visible to a caller who is their friend, or when they use the same app.
    private func isVisible(_ other: UserRecord, to caller: TokenInspector.Grant) async throws -> Bool {
        if try await platform.authorizations.active(userID: other.id, appID: caller.authorization.appID) != nil { return true }
        return try await platform.friends.areFriends(caller.user.id, other.id)
    }

    /// An app's public fields: `id` and `name`.
    private static func render(_ app: AppRecord, _ selection: FieldSelection) throws -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        for field in selection.fields {
            switch field.name {
            case "id": pairs.append(("id", .string(app.id)))
            case "name": pairs.append(("name", .string(app.name)))
            default: throw GraphError.invalidParameter("Tried accessing nonexisting field (\(field.name)) on node type (Application)")
            }
        }
        return .object(pairs)
    }
}
