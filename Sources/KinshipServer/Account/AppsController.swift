import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// "Apps you use": `GET /account/apps` lists each app with what it may see; `POST /account/apps`
/// takes one permission back or removes the app, with the same effects as the Graph API's
/// `DELETE /me/permissions/{name}` and `DELETE /me/permissions`.
struct AppsController: Sendable {
    let account: AccountPages

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/account/apps") { request, _ in try await show(request) }
        router.post("/account/apps") { request, context in try await revoke(request, context) }
    }

    private static let notices = [
        "revoked": "The app can no longer use that permission.",
        "removed": "The app was removed. It can no longer see anything of yours, and its tokens stopped working.",
        "gone": "That app was already removed.",
    ]

    private func show(_ request: Request) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let notice = FormReader.query(of: request)["notice"].flatMap { Self.notices[$0] }
        var apps: [[String: Any]] = []
        for authorization in try await account.platform.authorizations.active(userID: person.user.id) {
            guard let app = try await account.platform.apps.find(id: authorization.appID) else { continue }
            let permissions = authorization.permissions.sorted { $0.key < $1.key }.map { permission, status -> [String: Any] in
                [
                    "name": permission.rawValue, "summary": PermissionCatalogue.title(of: permission),
                    "isGranted": status == .granted, "canRevoke": status == .granted && PermissionCatalogue.isRevocableAlone(permission),
                ]
            }
            apps.append(["appID": app.id, "appName": app.name, "permissions": permissions])
        }
        return account.page(
            "apps",
            title: "Apps you use",
            section: "apps",
            person: person,
            values: ["apps": apps, "hasApps": !apps.isEmpty],
            notice: notice
        )
    }

    private func revoke(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let form = try await account.readForm(request, of: person)
        guard let appID = form["app_id"] else {
            return account.pages.error(status: .badRequest, heading: "Unknown request", message: "The form did not name an app.")
        }
        guard let authorization = try await account.platform.authorizations.active(userID: person.user.id, appID: appID) else {
            return AccountPages.redirect(to: "/account/apps?notice=gone")
        }
        if let name = form["permission"] {
            let permission = Permission(name)
            guard PermissionCatalogue.isRevocableAlone(permission) else {
                return account.pages.error(
                    status: .badRequest,
                    heading: "Cannot take that back on its own",
                    message: "Your public profile is what every app gets; remove the app to stop sharing it."
                )
            }
            try await account.platform.authorizations.revoke(permission, in: authorization.id)
            context.logger.info(
                "Permission revoked on the apps page",
                metadata: ["user.id": "\(person.user.id)", "app.id": "\(appID)", "permission": "\(name)"]
            )
            return AccountPages.redirect(to: "/account/apps?notice=revoked")
        }
        try await account.platform.authorizations.revokeAll(authorization.id, notifyingApp: true)
        context.logger.info("App removed on the apps page", metadata: ["user.id": "\(person.user.id)", "app.id": "\(appID)"])
        return AccountPages.redirect(to: "/account/apps?notice=removed")
    }
}
