import Foundation
import Hummingbird
import KinshipCore
import NIOConcurrencyHelpers
import NIOCore

/// A small HTTP server a test runs to play an app's server: it records each callback it is sent
/// and answers as the test tells it to.
final class CallbackReceiver: Sendable {
    /// One callback received.
    struct Received: Sendable {
        let path: String
        let signedRequest: String
    }

    /// How the next callbacks are answered.
    enum Answer: Sendable {
        case ok(body: String)
        case status(HTTPResponse.Status)
    }

    private let state = NIOLockedValueBox<(received: [Received], answers: [Answer], inFlight: Int, mostInFlight: Int)>(([], [], 0, 0))
    /// How long each answer takes.
    let delay: Duration
    let port: Int

    init(port: Int, delay: Duration) {
        self.port = port
        self.delay = delay
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var received: [Received] { state.withLockedValue { $0.received } }
    /// The most callbacks the receiver was answering at one time.
    var mostInFlight: Int { state.withLockedValue { $0.mostInFlight } }

    /// Answers the next callbacks with `answers`, in order; after them, `200 {"success": true}`.
    func answerNext(_ answers: Answer...) {
        state.withLockedValue { $0.answers.append(contentsOf: answers) }
    }

    fileprivate func handle(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        let form = FormParameters(formEncoded: String(buffer: body))
        let answer = state.withLockedValue { state -> Answer in
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            return state.answers.isEmpty ? .ok(body: #"{"success":true}"#) : state.answers.removeFirst()
        }
        try await Task.sleep(for: delay)
        state.withLockedValue { state in
            state.inFlight -= 1
            state.received.append(Received(path: request.uri.path, signedRequest: form["signed_request"] ?? ""))
        }
        switch answer {
        case .ok(let body):
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        case .status(let status):
            return Response(status: status)
        }
    }
}

/// Runs a ``CallbackReceiver`` on 127.0.0.1 (on `port`, or a free one) for the length of `body`.
func withCallbackReceiver<Result: Sendable>(
    port: Int = 0,
    delay: Duration = .zero,
    _ body: @Sendable (CallbackReceiver) async throws -> Result
) async throws -> Result {
    let receiver = NIOLockedValueBox<CallbackReceiver?>(nil)
    let router = Router()
    router.post("**") { request, _ in
        guard let receiver = receiver.withLockedValue({ $0 }) else { return Response(status: .serviceUnavailable) }
        return try await receiver.handle(request)
    }
    return try await withLoopbackServer(router, port: port, label: "test.callback-receiver") { listeningPort in
        let listening = CallbackReceiver(port: listeningPort, delay: delay)
        receiver.withLockedValue { $0 = listening }
        return try await body(listening)
    }
}

/// Waits, up to `seconds` of real time, until `condition` holds; returns whether it did. For
/// work another task does at once (a delivery), never for an expiry: tests move the clock for those.
func eventually(within seconds: Double = 10, _ condition: @Sendable () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
