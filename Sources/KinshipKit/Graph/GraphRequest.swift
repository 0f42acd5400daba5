import KinshipCore

/// One Graph API call: method, path, parameters, and the permissions it needs.
public struct GraphRequest: Sendable, Equatable {
    /// `GET`, `POST` or `DELETE`.
    public var method: String
    /// The path without version prefix, e.g. `me/friends`.
    public var path: String
    /// Query parameters for `GET`, the form body otherwise.
    public var parameters: FormParameters
    /// The permissions the call needs beyond `public_profile`. When the platform says one is
    /// missing, ``GraphRecovery`` asks the person for these.
    public var requiredPermissions: [Permission]

    /// A call; a leading `/` in `path` is dropped.
    public init(method: String = "GET", path: String, parameters: FormParameters = FormParameters(), requiredPermissions: [Permission] = []) {
        self.method = method
        self.path = path.hasPrefix("/") ? String(path.dropFirst()) : path
        self.parameters = parameters
        self.requiredPermissions = requiredPermissions
    }

    /// `GET /me?fields=…`. The permissions of gated fields (`email`, `birthday`, …) are listed as
    /// required, though the platform leaves such fields out rather than failing.
    public static func me(fields: [String]) -> GraphRequest {
        GraphRequest(path: "me", parameters: fields.isEmpty ? [:] : ["fields": fields.joined(separator: ",")])
    }

    /// `GET /me/friends`: one page of the person's friends who use the app.
    public static func friends(limit: Int? = nil, after: String? = nil, fields: [String] = GraphFriend.defaultFields) -> GraphRequest {
        var parameters = FormParameters()
        parameters.append("fields", fields.joined(separator: ","))
        parameters.append("limit", limit.map(String.init))
        parameters.append("after", after)
        return GraphRequest(path: "me/friends", parameters: parameters, requiredPermissions: [.userFriends])
    }

    /// `GET /me/permissions`.
    public static let permissions = GraphRequest(path: "me/permissions")

    /// `DELETE /me/permissions/{name}`: gives one permission back.
    public static func revoke(_ permission: Permission) -> GraphRequest {
        GraphRequest(method: "DELETE", path: "me/permissions/\(FormParameters.encode(permission.rawValue))")
    }

    /// `DELETE /me/permissions`: removes the app from the person's account.
    public static let revokeLogin = GraphRequest(method: "DELETE", path: "me/permissions")

    /// `GET /{user}/picture?redirect=false`: where a person's picture is and how big it is.
    public static func picture(of userID: String = "me", type: PictureType? = nil, width: Int? = nil, height: Int? = nil) -> GraphRequest {
        var parameters: FormParameters = ["redirect": "false"]
        parameters.append("type", type?.rawValue)
        parameters.append("width", width.map(String.init))
        parameters.append("height", height.map(String.init))
        return GraphRequest(path: "\(FormParameters.encode(userID))/picture", parameters: parameters)
    }

    /// `POST /me/feed`: posts on the person's timeline.
    public static func post(message: String, link: String? = nil) -> GraphRequest {
        var parameters: FormParameters = ["message": message]
        parameters.append("link", link)
        return GraphRequest(method: "POST", path: "me/feed", parameters: parameters, requiredPermissions: [.publishActions])
    }

    /// The path and query as a batch part's `relative_url`.
    var relativeURL: String {
        let query = method == "GET" || method == "DELETE" ? parameters.formEncoded : ""
        return query.isEmpty ? path : "\(path)?\(query)"
    }
}

/// The picture sizes Graph names.
public enum PictureType: String, Sendable, CaseIterable {
    /// 50 × 50 pixels.
    case square
    /// 50 × 50 pixels, the size when none is asked for.
    case small
    /// 100 × 100 pixels.
    case normal
    /// 200 × 200 pixels.
    case large
}
