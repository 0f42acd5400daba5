import Hummingbird

/// Behind a trusted reverse proxy, takes each request's client address from the proxy's
/// `Forwarded` or `X-Forwarded-For` header (see ``ClientAddress``); installed only when the
/// operator names trusted proxies.
struct ClientAddressMiddleware: RouterMiddleware {
    let resolver: ClientAddress

    func handle(
        _ request: Request,
        context: KinshipRequestContext,
        next: (Request, KinshipRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.clientAddress = resolver.resolve(peer: context.clientAddress, headers: request.headers)
        return try await next(request, context)
    }
}
