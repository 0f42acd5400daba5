import Foundation
import KinshipCore

/// Calls the Graph API with the current token: typed requests, raw ones, and batches.
///
/// Every failure is a ``GraphError`` with a category; ``GraphRecovery`` acts on it.
public struct GraphClient: Sendable {
    /// The platform and app this client calls for.
    public let configuration: KinshipConfiguration
    private let tokens: any AccessTokenProvider
    private let transport: any HTTPTransport

    /// A client that calls with the token `tokens` holds, over `transport`.
    public init(configuration: KinshipConfiguration, tokens: any AccessTokenProvider, transport: any HTTPTransport = SystemTransport()) {
        self.configuration = configuration
        self.tokens = tokens
        self.transport = transport
    }

    // MARK: - Typed requests

    /// The person logged in, with `fields` (the platform leaves out fields it may not show).
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer.
    public func me(fields: [String] = ["id", "name"]) async throws(GraphError) -> GraphUser {
        try await send(.me(fields: fields), as: GraphUser.self)
    }

    /// One page of the person's friends who use the app; needs `user_friends`.
    ///
    /// - Parameters:
    ///   - limit: How many friends on the page; the platform's default (25) when `nil`.
    ///   - after: The cursor of the page before (``FriendsPage/nextCursor``); `nil` for the first page.
    ///   - fields: The fields of each friend, as the Graph names them.
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer.
    public func friends(
        limit: Int? = nil,
        after: String? = nil,
        fields: [String] = GraphFriend.defaultFields
    ) async throws(GraphError)
        -> FriendsPage
    {
        try await send(.friends(limit: limit, after: after, fields: fields), as: FriendsPage.self)
    }

    /// Every friend, page after page, as an asynchronous sequence.
    ///
    /// - Parameters:
    ///   - pageSize: How many friends each request asks for.
    ///   - fields: The fields of each friend, as the Graph names them.
    public func allFriends(pageSize: Int = 100, fields: [String] = GraphFriend.defaultFields) -> FriendSequence {
        FriendSequence(client: self, pageSize: pageSize, fields: fields)
    }

    /// What the person granted and declined to this app.
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer.
    public func permissions() async throws(GraphError) -> [PermissionStatus] {
        struct List: Decodable { let data: [PermissionStatus] }
        return try await send(.permissions, as: List.self).data
    }

    /// Gives `permission` back; from now on the app works as if it was never granted.
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer.
    public func revoke(_ permission: Permission) async throws(GraphError) {
        _ = try await send(.revoke(permission))
    }

    /// Removes the app from the person's account: every token of theirs for it stops working.
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer.
    public func revokeLogin() async throws(GraphError) {
        _ = try await send(.revokeLogin)
    }

    /// Where a person's picture is, in the size asked for.
    ///
    /// - Parameters:
    ///   - userID: Whose picture: `me`, or a user id.
    ///   - type: A named size; ignored when `width` or `height` is given.
    ///   - width: The width wanted, in pixels.
    ///   - height: The height wanted, in pixels.
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer.
    public func picture(
        of userID: String = "me",
        type: PictureType? = nil,
        width: Int? = nil,
        height: Int? = nil
    )
        async throws(GraphError) -> Picture
    {
        try await send(.picture(of: userID, type: type, width: width, height: height), as: PictureData.self).data
    }

    /// Posts `message` on the person's timeline (needs `publish_actions`); returns the post's id.
    ///
    /// - Parameters:
    ///   - message: The text of the post.
    ///   - link: An address to attach, if any.
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer.
    public func post(message: String, link: String? = nil) async throws(GraphError) -> String {
        struct Created: Decodable { let id: String }
        return try await send(.post(message: message, link: link), as: Created.self).id
    }

    /// Any Graph call, answered as JSON.
    ///
    /// - Parameters:
    ///   - path: The path without the version prefix, such as `me/friends`.
    ///   - method: `GET`, `POST` or `DELETE`.
    ///   - params: Query parameters for `GET`, the form body otherwise.
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer.
    public func request(path: String, method: String = "GET", params: [String: String] = [:]) async throws(GraphError) -> GraphValue {
        try await send(GraphRequest(method: method, path: path, parameters: FormParameters(params.sorted { $0.key < $1.key })))
    }

    /// The token held now (a call may renew it first; see ``AccessTokenProvider/accessTokenForCall()``).
    public func currentToken() async -> AccessToken? {
        await tokens.currentAccessToken()
    }

    // MARK: - Sending

    /// Sends `request` and decodes the answer as `Model`.
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer. An answer that does not decode as `Model`
    ///   is an ``GraphError/Category/other`` error.
    public func send<Model: Decodable>(_ request: GraphRequest, as model: Model.Type) async throws(GraphError) -> Model {
        let response = try await exchange(request)
        return try Self.decode(Model.self, from: response.body, status: response.status, request: request).get()
    }

    /// Sends `request` and returns the answer as JSON.
    ///
    /// - Throws: ``GraphError``: sorted by ``GraphError/category`` — nobody logged in, a token the platform
    ///   refused, a missing permission, too many calls, or no answer.
    public func send(_ request: GraphRequest) async throws(GraphError) -> GraphValue {
        try await send(request, as: GraphValue.self)
    }

    /// Sends up to 50 requests in one call; each part succeeds or fails on its own.
    ///
    /// - Throws: ``GraphError`` when the batch as a whole fails; each part's own failure is its `Result`.
    public func batch(_ requests: [GraphRequest]) async throws(GraphError) -> [Result<GraphValue, GraphError>] {
        struct Part: Encodable {
            let method: String
            let relativeURL: String
            let body: String?

            enum CodingKeys: String, CodingKey {
                case method, body
                case relativeURL = "relative_url"
            }
        }
        struct Answer: Decodable {
            let code: Int
            let body: String
        }
        let parts = requests.map { request in
            Part(
                method: request.method,
                relativeURL: request.relativeURL,
                body: request.method == "POST" ? request.parameters.formEncoded : nil
            )
        }
        let encoded = String(decoding: (try? JSONEncoder().encode(parts)) ?? Data(), as: UTF8.self)
        let answers = try await send(GraphRequest(method: "POST", path: "", parameters: ["batch": encoded]), as: [Answer?].self)
        return zip(requests, answers).map { request, answer in
            guard let answer else { return .failure(GraphError(category: .transient, message: "The batch part \(request.path) got no answer.")) }
            return Self.result(status: answer.code, body: Data(answer.body.utf8), request: request)
        }
    }

    private func exchange(_ request: GraphRequest) async throws(GraphError) -> TransportResponse {
        let token = try await tokens.accessTokenForCall()
        var url = URLComponents(url: configuration.graphURL(request.path), resolvingAgainstBaseURL: false)!
        var headers = ["Authorization": "Bearer \(token.tokenString)", "Accept": "application/json"]
        var body: Data?
        if request.method == "POST" {
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = Data(request.parameters.formEncoded.utf8)
        } else if !request.parameters.pairs.isEmpty {
            url.percentEncodedQuery = request.parameters.formEncoded
        }
        let response: TransportResponse
        do {
            response = try await transport.send(
                TransportRequest(method: request.method, url: url.url!, headers: headers, body: body, timeout: configuration.requestTimeout)
            )
        } catch {
            throw .transport(error)
        }
        if let failure = Self.failure(status: response.status, body: response.body, request: request) { throw failure }
        return response
    }

    /// A status and body read as success, or as the ``GraphError`` they describe.
    static func result(status: Int, body: Data, request: GraphRequest) -> Result<GraphValue, GraphError> {
        if let failure = failure(status: status, body: body, request: request) { return .failure(failure) }
        return decode(GraphValue.self, from: body, status: status, request: request)
    }

    /// The error an answer describes, or `nil` for a success (2xx), whose body is not read here.
    private static func failure(status: Int, body: Data, request: GraphRequest) -> GraphError? {
        if (200..<300).contains(status) { return nil }
        if let graph = try? JSONDecoder().decode(GraphErrorBody.self, from: body) {
            return GraphError(status: status, body: graph.error, request: request)
        }
        return GraphError(
            category: GraphError.category(status: status),
            message: "HTTP \(status) from \(request.path): \(body.excerpt)",
            httpStatus: status
        )
    }

    /// A successful answer's body as `Model`.
    private static func decode<Model: Decodable>(
        _ model: Model.Type,
        from body: Data,
        status: Int,
        request: GraphRequest
    )
        -> Result<Model, GraphError>
    {
        do {
            return .success(try JSONDecoder().decode(Model.self, from: body))
        } catch {
            let what = Model.self == GraphValue.self ? "JSON" : "a \(Model.self): \(error)"
            return .failure(GraphError(category: .other, message: "The answer to \(request.path) is not \(what)", httpStatus: status))
        }
    }
}
