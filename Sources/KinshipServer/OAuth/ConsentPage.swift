import Hummingbird
import KinshipCore

/// The consent page of a login, for the dialog and for `/device`: what the app asks for, as
/// ticked checkboxes the person may untick. Read permissions come first; publish permissions are
/// asked on a step of their own.
struct ConsentPage: Sendable {
    /// What is being consented to, and where the page's forms go.
    struct Request: Sendable {
        let app: AppRecord
        let requested: [Permission]
        let rerequest: Bool
        /// Where Continue and Cancel post.
        let formAction: String
        /// Where "Not you?" posts.
        let switchAction: String
        /// For a device login: the code the person should see on their device.
        var deviceUserCode: String?
    }

    let platform: Platform
    let pages: PageRenderer

    /// The plan for `request` now, given what `userID` already granted or declined.
    func plan(_ request: Request, userID: String) async throws -> ConsentPlan {
        let existing = try await platform.authorizations.active(userID: userID, appID: request.app.id)
        return ConsentPlan(requested: request.requested, existing: existing, rerequest: request.rerequest)
    }

    /// The page for `step` (by default: read, or publish when there is nothing to read).
    func render(
        _ request: Request,
        user: UserRecord,
        step requestedStep: PermissionKind?,
        hiddenFields: [[String: String]]
    )
        async throws -> Response
    {
        let plan = try await plan(request, userID: user.id)
        let step = requestedStep ?? (plan.asked(.read).isEmpty && !plan.asked(.publish).isEmpty ? .publish : .read)
        let asked: [[String: String]] = plan.asked(step).compactMap { permission in
            PermissionCatalogue.contains(permission) ? ["name": permission.rawValue, "summary": PermissionCatalogue.title(of: permission)] : nil
        }
        let alreadyGranted = plan.alreadyGranted.compactMap { PermissionCatalogue.descriptor(for: $0)?.summary }
        var values: [String: Any] = [
            "title": "Continue to \(request.app.name)", "appName": request.app.name, "userName": user.name,
            "userFirstName": user.firstName ?? user.name, "isPublishStep": step == .publish,
            "publicProfileSummary": PermissionCatalogue.title(of: .publicProfile),
            "asked": asked, "hasAlreadyGranted": !alreadyGranted.isEmpty, "alreadyGranted": alreadyGranted.joined(separator: ", "),
            "hiddenFields": hiddenFields + [["name": "step", "value": step.rawValue]],
            "formAction": request.formAction, "switchAction": request.switchAction,
        ]
        if let code = request.deviceUserCode { values["deviceUserCode"] = code }
        return pages.page("consent", values)
    }

    /// Records what the person ticked on `step`'s page: the ticked permissions granted, the rest of
    /// that step declined. Returns the authorization, and whether a publish step follows.
    func record(
        _ request: Request,
        userID: String,
        step: PermissionKind,
        ticked: Set<Permission>
    ) async throws
        -> (authorization: Authorization, publishStepFollows: Bool)
    {
        let plan = try await plan(request, userID: userID)
        let askedNow = plan.asked(step)
        let granted = ticked.intersection(askedNow)
        let authorization = try await platform.authorizations.recordConsent(
            userID: userID,
            appID: request.app.id,
            granted: granted,
            declined: Set(askedNow).subtracting(granted)
        )
        return (authorization, step == .read && !plan.asked(.publish).isEmpty)
    }
}
