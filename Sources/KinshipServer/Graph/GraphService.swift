import Foundation
import HTTPTypes
import KinshipCore
import Logging

/// The Graph API, independent of HTTP: one ``GraphRequest`` in, one ``GraphResponse`` out, so a
/// batch runs its parts through exactly the code a single call takes.
struct GraphService: Sendable {
    let platform: Platform
    let inspector: TokenInspector
    let appTokens: AppAccessTokens
    let pictures: PictureService
    let profiles: ProfileRenderer
    let throttle: GraphThrottle

    init(platform: Platform, inspector: TokenInspector, appTokens: AppAccessTokens, throttle: GraphThrottle) {
        self.platform = platform
        self.inspector = inspector
        self.appTokens = appTokens
        self.throttle = throttle
        self.pictures = PictureService(store: platform.pictures)
        self.profiles = ProfileRenderer(pictures: pictures, clock: platform.clock)
    }

    /// Answers a call; every failure becomes a Graph error answer.
    func respond(to request: GraphRequest, traceID: String, logger: Logger) async -> GraphResponse {
        do {
            return try await route(request)
        } catch let error as GraphError {
            return .error(error, traceID: traceID)
        } catch let unavailable as DatabaseUnavailable {
            logger.warning(
                "Graph call answered 503: the database is unavailable",
                metadata: ["graph.path": "\(request.path)", "reason": "\(unavailable.reason)"]
            )
            var response = GraphResponse.error(
                GraphError(
                    code: GraphErrorCode.serviceUnavailable,
                    message: "(#2) Service temporarily unavailable",
                    userTitle: "Try again in a moment",
                    userMessage: "Kinship is briefly unavailable. Nothing was changed.",
                    status: .serviceUnavailable
                ),
                traceID: traceID
            )
            response.headers[.retryAfter] = String(unavailable.retryAfter)
            return response
        } catch {
            logger.error("Graph call failed", metadata: ["graph.path": "\(request.path)", "error": "\(error)"])
            return .error(
                GraphError(
                    code: GraphErrorCode.unknown,
                    message: "An unknown error occurred. Try again later.",
                    status: .internalServerError
                ),
                traceID: traceID
            )
        }
    }

    private func route(_ request: GraphRequest) async throws -> GraphResponse {
        let path = request.pathComponents.map(String.init)
        switch (request.method, path.count) {
        case (.get, 0):
            return try await objects(request)
        case (.get, 1):
            return try await node(request, id: path[0])
        case (.get, 2) where path[1] == "picture":
            return try await picture(request, node: path[0])
        case (_, 2...3) where path[1] == "permissions":
            return try await permissions(request, node: path[0], name: path.count == 3 ? path[2] : nil)
        case (.get, 2) where path[1] == "friends":
            return try await friends(request, node: path[0])
        case (.get, 2) where path[1] == "feed", (.post, 2) where path[1] == "feed":
            return try await feed(request, node: path[0])
        default:
            throw GraphError.unknownPath(request.path)
        }
    }

    // MARK: - Callers

    /// The grant of a person's token; a missing or unusable token is error 190, an app access token
    /// error 2500.
    func caller(_ request: GraphRequest) async throws -> TokenInspector.Grant {
        guard case .person(let grant) = try await anyCaller(request) else {
            throw GraphError.userTokenRequired(for: "/\(request.path)")
        }
        return grant
    }

    /// Whom the call's token speaks for: a person, or an app with its app access token.
    func anyCaller(_ request: GraphRequest) async throws -> GraphCaller {
        guard let token = request.accessToken, !token.isEmpty else { throw GraphError.noToken }
        if AppAccessTokens.isAppToken(token) {
            guard let app = try await appTokens.app(for: token) else { throw GraphError.invalidAppToken }
            try throttle.admit(appID: app.id)
            return .app(app)
        }
        switch try await inspector.inspect(token) {
        case .success(let grant):
            try throttle.admit(userID: grant.user.id, appID: grant.authorization.appID)
            return .person(grant)
        case .failure(let refusal):
            throw GraphError.invalidToken(subcode: refusal.subcode, message: refusal.message)
        }
    }

    /// The caller's own node (`me`, or its own id); edges of other people are not readable.
    func ownNode(_ node: String, _ caller: TokenInspector.Grant) throws -> UserRecord {
        guard node == "me" || node == caller.user.id else { throw GraphError.unknownObject(node) }
        return caller.user
    }

    func requirePermission(_ permission: Permission, _ caller: TokenInspector.Grant, for what: String) throws {
        guard caller.authorization.hasGranted(permission) else { throw GraphError.missingPermission(permission, for: what) }
    }

    /// `limit`: 1 to 100, 25 when not given.
    func limit(_ request: GraphRequest) throws -> Int {
        guard let text = request.parameters["limit"] else { return 25 }
        guard let value = Int(text), value > 0 else { throw GraphError.invalidParameter("limit must be a positive whole number") }
        return min(value, 100)
    }

    // MARK: - Picture

    private func picture(_ request: GraphRequest, node: String) async throws -> GraphResponse {
        let user: UserRecord
        if node == "me" {
            user = try await caller(request).user
        } else {
            guard let found = try await platform.users.find(id: node) else { throw GraphError.unknownObject(node) }
            user = found
        }
        let parameters = request.parameters
        let size = try PictureSize(type: parameters["type"], width: parameters["width"], height: parameters["height"])
        let info = try await pictures.info(for: user, size: size, baseURL: request.baseURL)
        switch parameters["redirect"] {
        case "false", "0": return .json(JSONValue.object([("data", info.json)]))
        case nil, "true", "1": return .redirect(to: info.url)
        case let other?: throw GraphError.invalidParameter("redirect must be true or false, not \(other)")
        }
    }
}
