import Foundation
import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// The developer pages, like Facebook's app dashboard, for anyone logged in: `/developers` lists
/// the person's apps and makes new ones; `/developers/apps/ID` shows one (client id, its free
/// custom-scheme redirect, people using it, recent callbacks), edits it, rotates its secret with a
/// grace period, and deletes it. Administrators may open every app's page.
struct DeveloperController: Sendable {
    let account: AccountPages
    let callbackSettings: AppCallbackSettings

    private var platform: Platform { account.platform }

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/developers") { request, _ in
            let person = try await account.requireSignedIn(request)
            let notice = FormReader.query(of: request)["notice"].flatMap { Self.notices[$0] }
            return try await listPage(person, form: AppForm(), problems: [], status: .ok, notice: notice)
        }
        router.post("/developers/apps") { request, context in try await create(request, context) }
        router.get("/developers/apps/:id") { request, context in
            let (person, app) = try await ownApp(request, context)
            let notice = FormReader.query(of: request)["notice"].flatMap { Self.notices[$0] }
            return try await appPage(person, app, form: AppForm(app), problems: [], notice: notice, status: .ok)
        }
        router.post("/developers/apps/:id") { request, context in try await update(request, context) }
        router.post("/developers/apps/:id/secret") { request, context in try await rotateSecret(request, context) }
        router.post("/developers/apps/:id/delete") { request, context in try await delete(request, context) }
    }

    private static let notices = [
        "saved": "Your changes are saved.",
        "deleted": "The app is deleted. Every token it held stopped working.",
    ]

    /// The grace periods a developer may pick for the old secret after a rotation, in seconds.
    static let graceChoices: [(seconds: Int, label: String)] = [
        (0, "stops at once"), (3_600, "keeps working for 1 hour"), (86_400, "keeps working for 1 day"),
        (604_800, "keeps working for 7 days"),
    ]

    // MARK: - Pages

    private func listPage(
        _ person: SignedIn,
        form: AppForm,
        problems: [String],
        status: HTTPResponse.Status,
        notice: String? = nil
    )
        async throws -> Response
    {
        let owned = try await platform.apps.owned(by: person.user.id)
        let people = try await platform.apps.userCounts(appIDs: owned.map(\.id))
        let apps = owned.map { app -> [String: Any] in
            ["id": app.id, "name": app.name, "type": app.isConfidential ? "Confidential" : "Public", "people": people[app.id] ?? 0]
        }
        return account.page(
            "developers",
            title: "Your apps",
            section: "developers",
            person: person,
            values: ["apps": apps, "hasApps": !apps.isEmpty, "form": form.values, "problems": problems, "hasProblems": !problems.isEmpty],
            notice: notice,
            status: status
        )
    }

    private func appPage(
        _ person: SignedIn,
        _ app: AppRecord,
        form: AppForm,
        problems: [String],
        notice: String?,
        status: HTTPResponse.Status,
        shownSecrets: [String: String] = [:]
    ) async throws -> Response {
        let deliveries = try await platform.callbacks.recent(appID: app.id, limit: 20).map { delivery -> [String: Any] in
            [
                "kind": delivery.kind == .deauthorize ? "Deauthorize" : "Data deletion", "status": delivery.status.rawValue,
                "when": PageDate.text(delivery.createdAt), "attempts": delivery.attempts,
                "answer": delivery.lastError ?? delivery.lastStatus.map { "HTTP \($0)" } ?? "",
            ]
        }
        var values: [String: Any] = [
            "app": [
                "id": app.id, "name": app.name,
                "type": app.isConfidential ? "Confidential (keeps its secret on a server)" : "Public (an app on people's devices)",
                "customScheme": app.customSchemeRedirectURI, "people": try await platform.apps.userCount(appID: app.id),
                "created": PageDate.text(app.createdAt),
            ] as [String: Any],
            "form": form.values, "problems": problems, "hasProblems": !problems.isEmpty,
            "deliveries": deliveries, "hasDeliveries": !deliveries.isEmpty,
            "graceChoices": Self.graceChoices.map { ["seconds": $0.seconds, "label": $0.label] },
        ]
        if let expiry = app.previousSecretExpiresAt, expiry > platform.clock.now {
            values["previousSecretUntil"] = PageDate.text(expiry)
        }
        if let secret = shownSecrets["client"] { values["newClientSecret"] = secret }
        if let secret = shownSecrets["signing"] { values["newSigningSecret"] = secret }
        return account.page(
            "developer-app",
            title: app.name,
            section: "developers",
            person: person,
            values: values,
            notice: notice,
            status: status
        )
    }

    // MARK: - Actions

    private func create(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let form = AppForm(try await account.readForm(request, of: person))
        let problems = form.problems()
        guard problems.isEmpty else { return try await listPage(person, form: form, problems: problems, status: .badRequest) }
        let (app, secret) = try await platform.apps.create(
            name: form.name,
            redirectURIs: form.redirectURIs,
            isConfidential: form.isConfidential,
            ownerID: person.user.id,
            mayPublish: form.mayPublish,
            mayChat: form.mayChat
        )
        var shown = ["client": secret]
        let (created, signing) = try await applyCallbacks(form, to: app)
        if let signing { shown["signing"] = signing }
        context.logger.info("App created on the developer pages", metadata: ["user.id": "\(person.user.id)", "app.id": "\(app.id)"])
        return try await appPage(
            person,
            created,
            form: AppForm(created),
            problems: [],
            notice: "Your app is made. Copy its client secret now: it is shown only this once.",
            status: .ok,
            shownSecrets: shown
        )
    }

    private func update(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let (person, app) = try await ownApp(request, context)
        let form = AppForm(try await account.readForm(request, of: person))
        let problems = form.problems()
        guard problems.isEmpty else {
            return try await appPage(person, app, form: form, problems: problems, notice: nil, status: .badRequest)
        }
        try await platform.apps.update(
            appID: app.id,
            .init(
                name: form.name,
                isConfidential: form.isConfidential,
                redirectURIs: form.redirectURIs,
                mayPublish: form.mayPublish,
                mayChat: form.mayChat
            )
        )
        let (changed, signing) = try await applyCallbacks(form, to: app)
        context.logger.info("App changed on the developer pages", metadata: ["user.id": "\(person.user.id)", "app.id": "\(app.id)"])
        guard let signing else {
            return AccountPages.redirect(to: "/developers/apps/\(app.id)?notice=saved")
        }
        return try await appPage(
            person,
            changed,
            form: AppForm(changed),
            problems: [],
            notice: "Your changes are saved. Copy the callbacks' signing secret now: it is shown only this once.",
            status: .ok,
            shownSecrets: ["signing": signing]
        )
    }

    /// Sets the callback URLs the form names (removing those left empty) on `app` as it was
    /// before the form; returns the app as it is now and the signing secret when one was made, the
    /// only time it is shown.
    private func applyCallbacks(_ form: AppForm, to app: AppRecord) async throws -> (AppRecord, signingSecret: String?) {
        let wanted = (form.deauthorizeURL, form.dataDeletionURL)
        let unchanged = app.deauthorizeCallbackURL ?? "" == wanted.0 && app.dataDeletionCallbackURL ?? "" == wanted.1
        guard !unchanged else { return (try await platform.apps.find(id: app.id) ?? app, nil) }
        return try await callbackSettings.update(appID: app.id, .init(deauthorizeURL: wanted.0, dataDeletionURL: wanted.1))
    }

    private func rotateSecret(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let (person, app) = try await ownApp(request, context)
        let form = try await account.readForm(request, of: person)
        guard let grace = form["grace"].flatMap(Int.init), Self.graceChoices.contains(where: { $0.seconds == grace }) else {
            return account.pages.error(
                status: .badRequest,
                heading: "Pick how long the old secret works",
                message: "The form did not say how long the old secret should keep working."
            )
        }
        let secret = try await platform.apps.rotateSecret(appID: app.id, graceSeconds: grace)
        context.logger.notice(
            "App client secret rotated",
            metadata: [
                "user.id": "\(person.user.id)", "app.id": "\(app.id)", "grace_s": "\(grace)",
            ]
        )
        let rotated = try await platform.apps.find(id: app.id) ?? app
        return try await appPage(
            person,
            rotated,
            form: AppForm(rotated),
            problems: [],
            notice: "A new client secret is made. Copy it now: it is shown only this once.",
            status: .ok,
            shownSecrets: ["client": secret]
        )
    }

    private func delete(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let (person, app) = try await ownApp(request, context)
        let form = try await account.readForm(request, of: person)
        guard form["confirm"] == app.name else {
            return try await appPage(
                person,
                app,
                form: AppForm(app),
                problems: ["Type the app's name, \(app.name), to delete it."],
                notice: nil,
                status: .badRequest
            )
        }
        _ = try await platform.apps.delete(appID: app.id)
        context.logger.notice("App deleted on the developer pages", metadata: ["user.id": "\(person.user.id)", "app.id": "\(app.id)"])
        return AccountPages.redirect(
            to: person.user.isAdmin && app.ownerID != person.user.id ? "/admin?notice=app-deleted" : "/developers?notice=deleted"
        )
    }

    /// The logged-in person and the app the path names, when it is theirs or they are an
    /// administrator; anyone else gets the same "no such app" page as for an app that does not
    /// exist, so app ids cannot be probed.
    private func ownApp(_ request: Request, _ context: KinshipRequestContext) async throws -> (SignedIn, AppRecord) {
        let person = try await account.requireSignedIn(request)
        guard let id = context.parameters.get("id"), let app = try await platform.apps.find(id: id),
            app.ownerID == person.user.id || person.user.isAdmin
        else {
            throw EarlyAnswer(
                response: account.pages.error(
                    status: .notFound,
                    heading: "No such app",
                    message: "You have no app with that id.",
                    detail: "Your apps are listed on the developer pages."
                )
            )
        }
        return (person, app)
    }
}
