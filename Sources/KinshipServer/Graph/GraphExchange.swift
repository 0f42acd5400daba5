import Foundation
import HTTPTypes
import KinshipCore

/// One Graph call, whatever carried it: an HTTP request or a part of a batch.
struct GraphRequest: Sendable {
    let method: HTTPRequest.Method
    /// The path without the leading slash and without a version prefix: `me/friends`.
    let path: String
    /// Query parameters, and for POST the form body too.
    let parameters: FormParameters
    /// The access token the call carries, if any.
    let accessToken: String?
    /// Where this server is reached, for the URLs it hands out (pictures, paging links).
    let baseURL: String

    var pathComponents: [Substring] { path.split(separator: "/", omittingEmptySubsequences: true) }
}

/// A Graph answer: a status, headers, and a JSON (or, for pictures, PNG) body.
struct GraphResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: Data
    /// The Graph error's `code`, when the answer is an error.
    var errorCode: Int? = nil

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> GraphResponse {
        GraphResponse(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: GraphJSON.encode(value))
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> GraphResponse {
        GraphResponse(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: Data(value.serialized))
    }

    static func error(_ error: GraphError, traceID: String) -> GraphResponse {
        var response = json(error.body(traceID: traceID), status: error.status)
        response.errorCode = error.code
        if error.status == .unauthorized { response.headers[.wwwAuthenticate] = #"Bearer error="invalid_token""# }
        return response
    }

    static func redirect(to url: String) -> GraphResponse {
        GraphResponse(status: .found, headers: [.location: url], body: Data())
    }
}

enum GraphJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static func encode(_ value: some Encodable) -> Data {
        (try? encoder.encode(value)) ?? Data(#"{"error":{"message":"unencodable answer","type":"GraphMethodException","code":1}}"#.utf8)
    }
}
