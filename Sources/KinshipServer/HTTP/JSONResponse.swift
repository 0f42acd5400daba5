import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// JSON answers with a chosen status, keys in a stable order.
enum JSONResponse {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func make<Value: Encodable>(
        _ value: Value,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    )
        -> Response
    {
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":"server_error"}"#.utf8)
        return make(json: ByteBuffer(bytes: data), status: status, headers: headers)
    }

    /// An answer whose JSON is written already.
    static func make(json: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: json))
    }
}
