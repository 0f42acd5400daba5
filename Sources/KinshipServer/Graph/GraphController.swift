import Foundation
import HTTPTypes
import Hummingbird
import KinshipCore
import Logging
import NIOCore

/// Carries Graph calls over HTTP: `GET|POST|DELETE /PATH` into ``GraphService``, several objects at
/// `GET /?ids=`, batches at `POST /`, and picture bytes at `GET /pictures/{user-id}`.
struct GraphController: Sendable {
    let service: GraphService
    let issuer: Issuer
    let configuration: ServerConfiguration
    let metrics: ServerMetrics

    /// The most parts one batch may have.
    static let batchLimit = 50

    /// Adds the Graph routes; `home` answers a browser's `GET /`, which a Graph call to `GET /`
    /// (one with `ids` or an access token) does not reach.
    func addRoutes(to router: Router<KinshipRequestContext>, home: @escaping @Sendable (Request) async throws -> Response) {
        router.get("/pictures/:userID") { request, context in try await picture(request, context) }
        router.post("/") { request, context in await batch(request, context) }
        router.get("/") { request, context in
            let query = FormReader.query(of: request)
            guard query["ids"] != nil || query["access_token"] != nil || Self.bearerToken(request.headers) != nil else {
                return try await home(request)
            }
            return await call(request, context)
        }
        for method in [HTTPRequest.Method.get, .post, .delete] {
            router.on("**", method: method) { request, context in await call(request, context) }
        }
    }

    private func call(_ request: Request, _ context: KinshipRequestContext) async -> Response {
        var parameters = FormReader.query(of: request)
        if request.method == .post {
            switch await readForm(request) {
            case .success(let form): parameters.append(contentsOf: form)
            case .failure(let error): return Self.http(.error(error, traceID: context.id))
            }
        }
        let graphRequest = GraphRequest(
            method: request.method,
            path: String(request.uri.path.drop { $0 == "/" }),
            parameters: parameters,
            accessToken: Self.bearerToken(request.headers) ?? parameters["access_token"],
            baseURL: issuer.url
        )
        return Self.http(await answer(graphRequest, context))
    }

    /// Answers one Graph call, and counts it by its path's shape and its error code.
    private func answer(_ graphRequest: GraphRequest, _ context: KinshipRequestContext) async -> GraphResponse {
        let response = await service.respond(to: graphRequest, traceID: context.id, logger: context.logger)
        metrics.graphCall(path: GraphPathShape.of(graphRequest.path), errorCode: response.errorCode)
        return response
    }

    /// `POST /` with `batch=[{"method", "relative_url", "body"}, …]`: each part runs on its own,
    /// with its own token if it carries one, else the batch's.
    private func batch(_ request: Request, _ context: KinshipRequestContext) async -> Response {
        let form: FormParameters
        switch await readForm(request) {
        case .success(let value): form = value
        case .failure(let error): return Self.http(.error(error, traceID: context.id))
        }
        guard let text = form["batch"], let parts = try? JSONDecoder().decode([BatchPart].self, from: Data(text.utf8)) else {
            return Self.http(.error(.invalidParameter("batch must be a JSON array of {\"method\", \"relative_url\"} objects"), traceID: context.id))
        }
        guard (1...Self.batchLimit).contains(parts.count) else {
            return Self.http(.error(.invalidParameter("A batch holds 1 to \(Self.batchLimit) requests"), traceID: context.id))
        }
        let batchToken = Self.bearerToken(request.headers) ?? form["access_token"]
        var answers: [BatchAnswer] = []
        for part in parts {
            let (path, query) = Self.split(part.relativeURL)
            var parameters = FormParameters(formEncoded: query)
            parameters.append(contentsOf: FormParameters(formEncoded: part.body ?? ""))
            guard let method = HTTPRequest.Method(part.method.uppercased()), [.get, .post, .delete].contains(method) else {
                answers.append(BatchAnswer(.error(.invalidParameter("Unsupported method \(part.method)"), traceID: context.id)))
                continue
            }
            let graphRequest = GraphRequest(
                method: method,
                path: path,
                parameters: parameters,
                accessToken: parameters["access_token"] ?? batchToken,
                baseURL: issuer.url
            )
            answers.append(BatchAnswer(await answer(graphRequest, context)))
        }
        return Self.http(.json(answers))
    }

    private func picture(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let userID = context.parameters.get("userID") ?? ""
        guard let user = try await service.platform.users.find(id: userID) else {
            return Self.http(.error(.unknownObject(userID), traceID: context.id))
        }
        let side = min(max(Int(FormReader.query(of: request)["size"] ?? "") ?? 100, 16), 1024)
        let image = try await service.pictures.image(for: user, side: side)
        return Response(
            status: .ok,
            headers: [.contentType: image.contentType, .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: image.data))
        )
    }

    private func readForm(_ request: Request) async -> Result<FormParameters, GraphError> {
        guard request.headers[.contentType] != nil else { return .success(FormParameters()) }
        do throws(FormReader.Failure) {
            return .success(try await FormReader.read(request, limit: configuration.maxFormBytes))
        } catch {
            switch error {
            case .notAForm: return .failure(.invalidParameter("Send parameters as application/x-www-form-urlencoded"))
            case .tooLarge(let limit): return .failure(.invalidParameter("The request body is larger than \(limit) bytes"))
            }
        }
    }

    /// The token of an `Authorization: Bearer T` header (the scheme in any case, RFC 7235).
    static func bearerToken(_ headers: HTTPFields) -> String? {
        guard let value = headers[.authorization]?.utf8, value.count > 7,
            value.prefix(7).elementsEqual("bearer ".utf8, by: { $0 | 0x20 == $1 | 0x20 })
        else { return nil }
        var token = value.dropFirst(7).drop { $0 == UInt8(ascii: " ") }
        while token.last == UInt8(ascii: " ") { token = token.dropLast() }
        return String(Substring(token))
    }

    /// `"/v1.0/me?fields=name"` → (`"me"`, `"fields=name"`).
    static func split(_ relativeURL: String) -> (path: String, query: String) {
        let parts = relativeURL.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path = Substring(parts[0]).drop { $0 == "/" }
        if let first = path.split(separator: "/").first, APIVersion.isVersion(first) {
            path = path.dropFirst(first.count).drop { $0 == "/" }
        }
        return (String(path), parts.count > 1 ? String(parts[1]) : "")
    }

    static func http(_ response: GraphResponse) -> Response {
        Response(status: response.status, headers: response.headers, body: .init(byteBuffer: ByteBuffer(bytes: response.body)))
    }
}

/// One request of a batch.
struct BatchPart: Decodable {
    let method: String
    let relativeURL: String
    let body: String?

    enum CodingKeys: String, CodingKey {
        case method
        case relativeURL = "relative_url"
        case body
    }
}

/// One answer of a batch: the status, the headers, and the body as a string.
private struct BatchAnswer: Encodable {
    struct Header: Encodable {
        let name: String
        let value: String
    }

    let code: Int
    let headers: [Header]
    let body: String

    init(_ response: GraphResponse) {
        code = response.status.code
        headers = response.headers.map { Header(name: $0.name.rawName, value: $0.value) }
        body = String(decoding: response.body, as: UTF8.self)
    }
}
