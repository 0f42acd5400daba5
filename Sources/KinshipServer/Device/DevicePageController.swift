import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// `/device` (RFC 8628 §3.3): where a person finishes a device login from a phone or computer. They
/// log in if needed, type the code the device shows (typing is limited per address and per person),
/// and answer the same consent page as the dialog, per-permission decline included.
struct DevicePageController: Sendable {
    let account: AccountPages

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/device") { request, _ in try await show(request) }
        router.post("/device") { request, context in try await enter(request, context) }
        router.post("/device/confirm") { request, context in try await confirm(request, context) }
    }

    private var platform: Platform { account.platform }
    private var consent: ConsentPage { ConsentPage(platform: account.platform, pages: account.pages) }

    // MARK: - Routes

    /// The code form; `verification_uri_complete` fills it in, and the person still presses Continue.
    private func show(_ request: Request) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let typed = String((FormReader.query(of: request)["user_code"] ?? "").prefix(32))
        return codePage(person, typed: typed, message: nil, status: .ok)
    }

    private func enter(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let form = try await account.readForm(request, of: person)
        let typed = String((form["user_code"] ?? "").prefix(32))
        if let retryAfter = try await countEntry(by: person, context) {
            var response = codePage(
                person,
                typed: typed,
                message: "Too many codes were typed just now. Try again in \(Self.minutes(retryAfter)).",
                status: .tooManyRequests
            )
            response.headers[.retryAfter] = String(retryAfter)
            return response
        }
        guard let code = UserCode(typed: typed) else {
            return codePage(
                person,
                typed: typed,
                message: "Codes are 8 letters, like BCDF-GHJK. Check the code on your device.",
                status: .badRequest
            )
        }
        guard let record = try await platform.deviceCodes.findPending(userCode: code), let app = try await platform.apps.find(id: record.appId)
        else {
            context.logger.info("Device code not found", metadata: ["user.id": "\(person.user.id)"])
            return codePage(
                person,
                typed: typed,
                message: "No device is waiting for that code. Check it, or start again on the device: codes last a few minutes.",
                status: .badRequest
            )
        }
        return try await consentPage(record, app, code, person, step: nil)
    }

    private func confirm(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let form = try await account.readForm(request, of: person)
        guard let code = UserCode(typed: form["user_code"] ?? ""), let record = try await platform.deviceCodes.findPending(userCode: code),
            let app = try await platform.apps.find(id: record.appId)
        else { return expired() }
        guard form["action"] == "continue" else {
            guard try await platform.deviceCodes.deny(record) else { return expired() }
            context.logger.info("Device login declined", metadata: ["user.id": "\(person.user.id)", "app.id": "\(app.id)"])
            return done("Login cancelled", "\(app.name) was not logged in on your device.")
        }
        let step: PermissionKind = form["step"] == PermissionKind.publish.rawValue ? .publish : .read
        let (authorization, publishStepFollows) = try await consent.record(
            consentRequest(record, app, code),
            userID: person.user.id,
            step: step,
            ticked: Set(form.all("permission").map { Permission($0) })
        )
        if publishStepFollows { return try await consentPage(record, app, code, person, step: .publish) }
        guard try await platform.deviceCodes.approve(record, authorization: authorization, authTime: person.authenticatedAt) else {
            return expired()
        }
        context.logger.info(
            "Device login approved",
            metadata: [
                "user.id": "\(person.user.id)", "app.id": "\(app.id)", "granted": "\(Permission.scope(of: authorization.granted))",
                "declined": "\(Permission.scope(of: authorization.declined))",
            ]
        )
        return done("You're logged in", "\(app.name) is now logged in as \(person.user.name) on your device.")
    }

    // MARK: - Pieces

    /// Counts one typed code against the address's and the person's limits, before the code is
    /// looked at, so parallel guesses get no more than the limit. The seconds to wait when over.
    private func countEntry(by person: SignedIn, _ context: KinshipRequestContext) async throws -> Int? {
        let limits = account.configuration.deviceLogin
        let rateLimits = platform.rateLimits
        let byAddress = try await rateLimits.hit(
            "device-entry-address:" + context.clientAddress,
            limit: limits.entriesPerWindow,
            windowSeconds: limits.entryWindowSeconds
        )
        let byPerson = try await rateLimits.hit(
            "device-entry-user:" + person.user.id,
            limit: limits.entriesPerWindow,
            windowSeconds: limits.entryWindowSeconds
        )
        guard let wait = [byAddress, byPerson].compactMap({ $0 }).max() else { return nil }
        context.logger.notice(
            "Device code typing refused: too many tries",
            metadata: [
                "user.id": "\(person.user.id)", "device.address": "\(context.clientAddress)",
            ]
        )
        return wait
    }

    private func consentRequest(_ record: DeviceCodeRecord, _ app: AppRecord, _ code: UserCode) -> ConsentPage.Request {
        .init(
            app: app,
            requested: record.requested,
            rerequest: false,
            formAction: "/device/confirm",
            switchAction: "/logout",
            deviceUserCode: code.description
        )
    }

    private func consentPage(
        _ record: DeviceCodeRecord,
        _ app: AppRecord,
        _ code: UserCode,
        _ person: SignedIn,
        step: PermissionKind?
    )
        async throws -> Response
    {
        try await consent.render(
            consentRequest(record, app, code),
            user: person.user,
            step: step,
            hiddenFields: [
                ["name": "user_code", "value": code.description], ["name": "next", "value": Self.path(code.description)],
                ["name": "csrf_token", "value": account.csrf.token(forSession: person.session)],
            ]
        )
    }

    private func codePage(_ person: SignedIn, typed: String, message: String?, status: HTTPResponse.Status) -> Response {
        var values: [String: Any] = [
            "title": "Log in on a device", "userName": person.user.name, "userCode": typed, "next": Self.path(typed),
            "csrfToken": account.csrf.token(forSession: person.session),
        ]
        if let message { values["message"] = message }
        return account.pages.page("device", values, status: status)
    }

    private func done(_ heading: String, _ message: String) -> Response {
        account.pages.page("device-done", ["title": heading, "heading": heading, "message": message])
    }

    private func expired() -> Response {
        account.pages.error(
            status: .gone,
            heading: "This device login has ended",
            message: "It expired or was answered already, so nothing was changed.",
            detail: "Start the login again on your device and type the new code."
        )
    }

    /// `/device`, with the code typed so far.
    private static func path(_ typed: String) -> String {
        typed.isEmpty ? "/device" : "/device?user_code=" + FormParameters.encode(typed)
    }

    private static func minutes(_ seconds: Int) -> String {
        let minutes = max(1, (seconds + 59) / 60)
        return minutes == 1 ? "a minute" : "\(minutes) minutes"
    }
}
