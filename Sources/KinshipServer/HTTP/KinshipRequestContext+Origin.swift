import Hummingbird

extension KinshipRequestContext {
    /// Where a browser session started by this request comes from: the client address and the
    /// browser's `User-Agent`.
    func sessionOrigin(of request: Request) -> BrowserSessionStore.Origin {
        BrowserSessionStore.Origin(address: clientAddress, userAgent: request.headers[.userAgent])
    }
}
