import Foundation
import NIOCore
import NIOHTTP1

/// Answers the browser's redirect to `/callback` with a page that says the login is done, and
/// passes the redirect URL on. Everything else is a 404; only GET is served.
final class CallbackHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let path = "/callback"

    private let deliver: @Sendable (URL) async -> Void
    private var head: HTTPRequestHead?

    init(deliver: @escaping @Sendable (URL) async -> Void) {
        self.deliver = deliver
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let isCallback = head.method == .GET && head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) == Self.path
        guard isCallback, let url = URL(string: "http://127.0.0.1:\(context.localAddress?.port ?? 0)\(head.uri)") else {
            write(.notFound, page: LoopbackPage.notFound, context: context)
            return
        }
        let cancelled = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.contains { $0.name == "error" } ?? false
        write(.ok, page: cancelled ? LoopbackPage.notLoggedIn : LoopbackPage.loggedIn, context: context)
        let deliver = self.deliver
        Task { await deliver(url) }
    }

    private func write(_ status: HTTPResponseStatus, page: String, context: ChannelHandlerContext) {
        let body = context.channel.allocator.buffer(string: page)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// The small pages the browser shows after the redirect.
enum LoopbackPage {
    static let loggedIn = page("You're logged in", "You can close this tab and go back to the terminal.")
    static let notLoggedIn = page("Login not completed", "The login was cancelled or refused. You can close this tab; the terminal says more.")
    static let notFound = page("Not found", "This address only receives the Kinship login redirect.")

    private static func page(_ title: String, _ text: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title) · Kinship</title>
        <style>body{font:18px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}</style>
        </head><body><h1>\(title)</h1><p>\(text)</p></body></html>
        """
    }
}
