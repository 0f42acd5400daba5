#if os(Linux)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// ``HTTPTransport`` over AsyncHTTPClient (SwiftNIO): the ``SystemTransport`` on Linux.
///
/// It behaves as `URLSessionTransport` does elsewhere: redirects are followed, compressed bodies
/// are decompressed, and each request has its own time limit. A refused connection fails at once
/// instead of being retried until the time limit, so a command pointed at a server that is not
/// running says so straight away.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The largest response body read; a longer one fails the request as unreachable.
    public static let largestBody = 16 << 20

    private let client: HTTPClient

    /// A transport on the process-wide client KinshipKit keeps (never shut down, like
    /// `HTTPClient.shared`), or on `client`, which its owner shuts down.
    public init(client: HTTPClient? = nil) {
        self.client = client ?? Self.processClient
    }

    /// The process's client: `HTTPClient.shared`'s settings, without retrying refused connections.
    private static let processClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }()

    /// Sends the request and reads the whole response within the request's time limit.
    ///
    /// - Throws: ``TransportError`` when no response came: unreachable, timed out, or cancelled.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let deadline = NIODeadline.now() + .nanoseconds(Int64(request.timeout * 1_000_000_000))
        do {
            let response = try await client.execute(outgoing, deadline: deadline)
            let body = try await response.body.collect(upTo: Self.largestBody)
            return TransportResponse(status: Int(response.status.code), headers: Self.fields(response.headers), body: Data(body.readableBytesView))
        } catch {
            throw Self.failure(error, request: request)
        }
    }

    /// The header fields, one value per name: repeated fields joined by commas, as `URLSession`
    /// gives them (RFC 9110 §5.3).
    private static func fields(_ headers: HTTPHeaders) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in headers {
            let key = name.lowercased()
            fields[key] = fields[key].map { "\($0), \(value)" } ?? value
        }
        return fields
    }

    /// What went wrong, as a ``TransportError`` with a sentence a person can act on.
    private static func failure(_ error: any Error, request: TransportRequest) -> TransportError {
        if Task.isCancelled || error is CancellationError { return .cancelled }
        let url = request.url
        let place = "\(url.host ?? "?")\(url.port.map { ":\($0)" } ?? "")"
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout: return .timedOut(url)
            case .cancelled: return .cancelled
            case .remoteConnectionClosed: return .unreachable("the connection to \(place) was lost")
            default: return .unreachable("the request to \(place) failed (\(error))")
            }
        case is NIOSSLError, is NIOSSLExtraError:
            return .unreachable(
                "no TLS connection to \(place): check that it serves HTTPS there, with a certificate for \(url.host ?? "?") that this machine trusts (\(error))"
            )
        case let error as NIOTooManyBytesError:
            return .unreachable("\(place) sent a body longer than \(error.maxBytes.map(String.init) ?? "the limit") bytes")
        case let error as NIOConnectionError:
            if error.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }) {
                return .unreachable("nothing accepts connections at \(place) (is `kinship serve` running?)")
            }
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return .unreachable("the host \(url.host ?? "?") is unknown")
            }
            return .unreachable("no connection to \(place)")
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return .unreachable("nothing accepts connections at \(place) (is `kinship serve` running?)")
        default:
            return .unreachable("the request to \(place) failed (\(error))")
        }
    }
}
#endif
