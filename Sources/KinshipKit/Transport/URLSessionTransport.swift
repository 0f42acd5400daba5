#if !os(Linux)
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession`: the ``SystemTransport`` everywhere but Linux.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// A transport on an ephemeral session (no cookies or cache kept on disk), or on `session`.
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    /// Sends the request. The time limit is kept here rather than left to `URLRequest`, whose
    /// sub-second limits are not honoured the same way on every platform.
    ///
    /// - Throws: ``TransportError`` when no response came: unreachable, timed out, or cancelled.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.timeoutInterval = request.timeout.rounded(.up) + 1
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let session = self.session
        let exchange = Task { try await session.data(for: urlRequest) }
        let timer = Task {
            try await Task.sleep(for: .seconds(request.timeout))
            exchange.cancel()
        }
        defer { timer.cancel() }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await withTaskCancellationHandler {
                try await exchange.value
            } onCancel: {
                exchange.cancel()
            }
        } catch let error as URLError {
            switch error.code {
            case .timedOut: throw .timedOut(request.url)
            case .cancelled: throw Task.isCancelled ? .cancelled : .timedOut(request.url)
            default: throw .unreachable(Self.reason(error, url: request.url))
            }
        } catch is CancellationError {
            throw Task.isCancelled ? .cancelled : .timedOut(request.url)
        } catch {
            throw .unreachable(String(describing: error))
        }
        guard let http = response as? HTTPURLResponse else { throw .unreachable("the answer was not HTTP") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }

    /// A sentence for the log and the person: what failed, and where.
    private static func reason(_ error: URLError, url: URL) -> String {
        let place = "\(url.host ?? "?")\(url.port.map { ":\($0)" } ?? "")"
        return switch error.code {
        case .cannotConnectToHost: "nothing accepts connections at \(place) (is `kinship serve` running?)"
        case .cannotFindHost, .dnsLookupFailed: "the host \(url.host ?? "?") is unknown"
        case .networkConnectionLost: "the connection to \(place) was lost"
        case .notConnectedToInternet: "this device is offline"
        default: "\(place): URL error \(error.code.rawValue)"
        }
    }
}
#endif
