import Foundation
import HTTPTypes
import Hummingbird
import KinshipContacts
import KinshipCore
import KinshipKit
import Logging

/// The sample app's routes: the home page, login and its callback, the picker's data, settings.
struct SampleController: Sendable {
    static let cookieName = "kinship_sample"
    /// The largest form the app reads.
    static let formLimit = 16 * 1024

    let app: SampleApp

    // MARK: - Pages

    func home(_ request: Request, _ logger: Logger) async throws -> Response {
        let session = await session(of: request)
        var values: [String: Any] = ["title": "Home", "formToken": session.formToken]
        if let token = session.token {
            do {
                let me = try await app.graph(token).me(fields: ["id", "name", "email", "picture.type(large)"])
                values["loggedIn"] = true
                values["name"] = me.name ?? "you"
                values["pictureURL"] = me.picture?.data.url
                if let email = me.email { values["email"] = email } else { values["emailProblem"] = problemValues(.permissionMissing(.email)) }
            } catch {
                if await forgetTokenIfDead(error, session, logger) { return try await home(request, logger) }
                values["loggedIn"] = true
                values["name"] = "you"
                values["problem"] = problemValues(.graph(error))
            }
        }
        if values["problem"] == nil, let flash = await app.sessions.takeFlash(session.id) { values["problem"] = problemValues(flash) }
        return respond(app.pages.page("home", values), session, request)
    }

    func settings(_ request: Request, _ logger: Logger) async throws -> Response {
        let session = await session(of: request)
        guard let token = session.token else { return respond(Self.redirect(SampleApp.path), session, request) }
        let permissions: [PermissionStatus]
        do {
            permissions = try await app.graph(token).permissions()
        } catch {
            if await !forgetTokenIfDead(error, session, logger) {
                await app.sessions.update(session.id) { $0.flash = .graph(error) }
            }
            return respond(Self.redirect(SampleApp.path), session, request)
        }
        let rows = permissions.sorted { $0.permission < $1.permission }.map { status -> [String: Any] in
            [
                "name": status.permission.rawValue, "summary": PermissionCatalogue.title(of: status.permission),
                "isGranted": status.status == .granted,
                "canRevoke": status.status == .granted && PermissionCatalogue.isRevocableAlone(status.permission),
                "canAsk": status.status != .granted && SampleApp.permissions.contains(status.permission),
            ]
        }
        var values: [String: Any] = ["title": "Settings", "formToken": session.formToken, "permissions": rows]
        if let revoked = Self.query(of: request)["revoked"],
            let descriptor = PermissionCatalogue.descriptor(for: Permission(revoked))
        {
            values["notice"] = "Kinship Sample can no longer see \(descriptor.summary)."
        }
        return respond(app.pages.page("settings", values), session, request)
    }

    // MARK: - Logging in and out

    /// Starts a login: a new PKCE verifier and state, then the platform's dialog. `?ask=NAME`
    /// asks again for one permission the person declined (`auth_type=rerequest`).
    func logIn(_ request: Request) async -> Response {
        let session = await session(of: request)
        let secrets = LoginSecrets.make()
        await app.sessions.update(session.id) { $0.pendingLogin = secrets }
        let ask = Self.query(of: request)["ask"].map { Permission($0) }
            .flatMap { SampleApp.permissions.contains($0) ? $0 : nil }
        var query = FormParameters()
        query.append("client_id", app.configuration().appID)
        query.append("redirect_uri", app.redirectURI)
        query.append("response_type", "code")
        query.append("state", secrets.state)
        query.append("scope", ask.map { $0.rawValue } ?? Permission.scope(of: SampleApp.permissions))
        query.append("code_challenge", secrets.challenge)
        query.append("code_challenge_method", "S256")
        if ask != nil { query.append("auth_type", "rerequest") }
        return respond(Self.redirect(app.configuration().dialogURL.absoluteString + "?" + query.formEncoded), session, request)
    }

    /// Where the dialog sends the person back: checks `state`, redeems the code with the app's
    /// secret and the PKCE verifier, and keeps the token in the session.
    func callback(_ request: Request, _ logger: Logger) async -> Response {
        let session = await session(of: request)
        let query = Self.query(of: request)
        await app.sessions.update(session.id) { $0.pendingLogin = nil }
        guard let pending = session.pendingLogin, let state = query["state"], ConstantTime.equals(state, pending.state) else {
            logger.notice("Sample login answer refused: no login of this browser has that state")
            await app.sessions.update(session.id) { $0.flash = .loginExpired }
            return respond(Self.redirect(SampleApp.path), session, request)
        }
        guard let code = query["code"] else {
            logger.info("Sample login refused by the dialog", metadata: ["oauth.error": "\(query["error"] ?? "none")"])
            await app.sessions.update(session.id) { $0.flash = .loginRefused(query["error"], description: query["error_description"]) }
            return respond(Self.redirect(SampleApp.path), session, request)
        }
        let exchange = TokenExchange(configuration: app.configuration(), transport: app.transport, clientSecret: app.clientSecret)
        do {
            let token = try await exchange.redeem(code: code, redirectURI: app.redirectURI, verifier: pending.verifier).accessToken
            await app.sessions.update(session.id) { $0.token = token }
            logger.info(
                "Sample login finished",
                metadata: ["user.id": "\(token.userID)", "granted": "\(Permission.scope(of: Array(token.permissions).sorted()))"]
            )
        } catch {
            logger.error("Sample login: the code exchange failed", metadata: ["error": "\(error)"])
            await app.sessions.update(session.id) {
                $0.flash = SampleProblem(
                    title: "Login did not finish",
                    message: "Kinship Sample could not finish the login with Kinship. Please try again.",
                    action: SampleProblem.logIn
                )
            }
        }
        return respond(Self.redirect(SampleApp.path), session, request)
    }

    /// Forgets the token here; the person stays logged in to Kinship itself.
    func logOut(_ request: Request) async throws -> Response {
        let (session, posted) = try await postedForm(request)
        guard posted != nil else { return respond(Self.redirect(SampleApp.path), session, request) }
        await app.sessions.update(session.id) { $0.token = nil }
        return respond(Self.redirect(SampleApp.path), session, request)
    }

    /// Removes the app from the person's account (`DELETE /me/permissions`), then logs out here.
    func remove(_ request: Request, _ logger: Logger) async throws -> Response {
        let (session, posted) = try await postedForm(request)
        guard posted != nil else { return respond(Self.redirect(SampleApp.path), session, request) }
        if let token = session.token {
            do {
                try await app.graph(token).revokeLogin()
                logger.info("Sample app removed by its user", metadata: ["user.id": "\(token.userID)"])
            } catch {
                logger.notice("Removing the sample app failed", metadata: ["error": "\(error)"])
                if error.category != .recoverable {
                    await app.sessions.update(session.id) { $0.flash = .graph(error) }
                    return respond(Self.redirect("/sample/settings"), session, request)
                }
            }
        }
        await app.sessions.update(session.id) {
            $0.token = nil
            $0.flash = SampleProblem(
                title: "Kinship Sample was removed",
                message: "Kinship Sample no longer has access to your Kinship account, and you are logged out of it.",
                action: SampleProblem.logIn
            )
        }
        return respond(Self.redirect(SampleApp.path), session, request)
    }

    /// The platform's deauthorize callback: the person removed the app on Kinship, so every session
    /// of theirs here is logged out. The `signed_request` must carry the app's signing secret's
    /// signature; anything else is refused and changes nothing.
    func deauthorize(_ request: Request, _ logger: Logger) async throws -> Response {
        let body = try await request.body.collect(upTo: Self.formLimit)
        let signed = FormParameters(formEncoded: String(buffer: body))["signed_request"] ?? ""
        let payload: SignedRequest
        do {
            payload = try SignedRequest(verifying: signed, secret: app.signingSecret)
        } catch {
            logger.warning("Sample refused a deauthorize callback", metadata: ["reason": "\(error)"])
            return Response(
                status: .badRequest,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":"invalid signed_request"}"#))
            )
        }
        let forgotten = await app.sessions.forget(userID: payload.userID, flash: .removedOnPlatform)
        logger.info(
            "Sample app removed on the platform; its sessions logged out",
            metadata: ["user.id": "\(payload.userID)", "sessions": "\(forgotten)"]
        )
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"success":true}"#)))
    }

    /// Gives one permission back (`DELETE /me/permissions/NAME`).
    func revoke(_ request: Request, _ logger: Logger) async throws -> Response {
        let (session, posted) = try await postedForm(request)
        guard let form = posted else { return respond(Self.redirect(SampleApp.path), session, request) }
        guard let token = session.token, let name = form["permission"] else {
            return respond(Self.redirect(SampleApp.path), session, request)
        }
        do {
            try await app.graph(token).revoke(Permission(name))
        } catch {
            if await !forgetTokenIfDead(error, session, logger) {
                await app.sessions.update(session.id) { $0.flash = .graph(error) }
            }
            return respond(Self.redirect(SampleApp.path), session, request)
        }
        return respond(Self.redirect("/sample/settings?revoked=" + FormParameters.encode(name)), session, request)
    }

    // MARK: - The picker's data

    /// `GET /sample/friends.json?q=TEXT&sort=first|last`: the friends who use the app, sectioned
    /// and filtered, or the reason there are none.
    func friends(_ request: Request, _ logger: Logger) async -> Response {
        let session = await session(of: request)
        let query = Self.query(of: request)
        guard let token = session.token else {
            return json(FriendPickerList(problem: .notLoggedIn), status: .unauthorized)
        }
        var friends: [GraphFriend] = []
        do {
            for try await friend in app.graph(token).allFriends(pageSize: 100) { friends.append(friend) }
        } catch {
            if await forgetTokenIfDead(error, session, logger) {
                return json(FriendPickerList(problem: .graph(error)), status: .unauthorized)
            }
            return json(FriendPickerList(problem: .graph(error)), status: error.category == .permission ? .forbidden : .badGateway)
        }
        let search = String((query["q"] ?? "").prefix(100))
        let order: KinshipContacts.SortOrder = query["sort"] == "last" ? .lastName : .firstName
        return json(FriendPickerList(friends: friends, search: search, sortOrder: order))
    }

    // MARK: - Helpers

    /// The browser's session here, a new one when its cookie names none.
    private func session(of request: Request) async -> SampleSession {
        await app.sessions.session(for: request.cookies[Self.cookieName]?.value)
    }

    /// When a Graph error means the token is dead (expired, revoked, app removed), forgets the
    /// token and leaves the reason for the next page. Returns whether it did.
    private func forgetTokenIfDead(_ error: GraphError, _ session: SampleSession, _ logger: Logger) async -> Bool {
        guard error.category == .recoverable else { return false }
        logger.info(
            "Sample session's token no longer works",
            metadata: ["graph.code": "\(error.code ?? 0)", "graph.subcode": "\(error.subcode ?? 0)"]
        )
        await app.sessions.update(session.id) {
            $0.token = nil
            $0.flash = .graph(error)
        }
        return true
    }

    /// The session a form was posted from, and the form, or no form when its token is not this
    /// session's (a stale page, or a form on another site). The body is read here, once.
    private func postedForm(_ request: Request) async throws -> (SampleSession, FormParameters?) {
        let session = await session(of: request)
        let body = try await request.body.collect(upTo: Self.formLimit)
        let form = FormParameters(formEncoded: String(buffer: body))
        guard let submitted = form["form_token"], ConstantTime.equals(submitted, session.formToken) else {
            await app.sessions.update(session.id) { $0.flash = .formExpired }
            return (session, nil)
        }
        return (session, form)
    }

    private func respond(_ response: Response, _ session: SampleSession, _ request: Request) -> Response {
        guard request.cookies[Self.cookieName]?.value != session.id else { return response }
        var response = response
        response.setCookie(app.cookie(session))
        return response
    }

    private func json(_ list: FriendPickerList, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let body = (try? encoder.encode(list)) ?? Data(#"{"sections":[]}"#.utf8)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    private func problemValues(_ problem: SampleProblem) -> [String: Any] {
        var values: [String: Any] = ["title": problem.title, "message": problem.message]
        if let action = problem.action { values["action"] = ["label": action.label, "href": action.href] }
        return values
    }

    private static func query(of request: Request) -> FormParameters {
        FormParameters(formEncoded: request.uri.query ?? "")
    }

    private static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}
