import Foundation

/// How KinshipKit reaches the platform: one request in, one response out.
///
/// ``SystemTransport`` is the default; apps with their own HTTP stack (or tests that need to
/// fail on purpose) provide another.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status. Throws ``TransportError``
    /// only when no response came (no connection, timeout, cancelled).
    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse
}

/// An HTTP request as KinshipKit makes them.
public struct TransportRequest: Sendable, Equatable {
    /// `GET`, `POST` or `DELETE`.
    public var method: String
    /// The full URL, query included.
    public var url: URL
    /// Header fields to send.
    public var headers: [String: String]
    /// The body of a `POST`, if any.
    public var body: Data?
    /// Seconds to wait for the response before giving up.
    public var timeout: TimeInterval

    /// A request from its parts.
    public init(method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval = 30) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// An HTTP response: status, headers (names lowercased) and body.
public struct TransportResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// The header fields, names lowercased.
    public var headers: [String: String]
    /// The body, possibly empty.
    public var body: Data

    /// A response from its parts; header names are lowercased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// A header's value, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

extension Data {
    /// The start of a response body, for an error message.
    var excerpt: String {
        let text = String(decoding: prefix(200), as: UTF8.self)
        return text.isEmpty ? "(empty body)" : text
    }
}

/// Why no response came back.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached (refused, unknown host, connection lost).
    case unreachable(String)
    /// No response within the request's timeout.
    case timedOut(URL)
    /// The caller cancelled.
    case cancelled

    /// A sentence for the developer.
    public var description: String {
        switch self {
        case .unreachable(let reason): "The Kinship server could not be reached: \(reason)"
        case .timedOut(let url): "No answer from \(url.absoluteString) in time."
        case .cancelled: "The request was cancelled."
        }
    }
}

#if os(Linux)
/// The platform's own HTTP stack, the transport KinshipKit uses unless it is given another:
/// ``AsyncHTTPClientTransport`` on Linux, `URLSessionTransport` everywhere else.
public typealias SystemTransport = AsyncHTTPClientTransport
#else
/// The platform's own HTTP stack, the transport KinshipKit uses unless it is given another:
/// ``URLSessionTransport`` here, `AsyncHTTPClientTransport` on Linux.
public typealias SystemTransport = URLSessionTransport
#endif
