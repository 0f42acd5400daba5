import KinshipCore

/// What the consent page asks for: the requested permissions less those already granted, and less
/// those the person declined before unless the app asked again with `auth_type=rerequest`.
struct ConsentPlan: Equatable {
    /// Permissions shown as checkboxes, in catalogue order.
    let asked: [Permission]
    /// Requested permissions the app holds already.
    let alreadyGranted: [Permission]

    /// The asked permissions of one kind: read permissions are asked first, publish permissions
    /// on a step of their own.
    func asked(_ kind: PermissionKind) -> [Permission] {
        asked.filter { PermissionCatalogue.descriptor(for: $0)?.kind == kind }
    }

    init(requested: [Permission], existing: Authorization?, rerequest: Bool) {
        let requested = Set(requested)
        let statuses = existing?.permissions ?? [:]
        var asked: [Permission] = []
        var alreadyGranted: [Permission] = []
        for descriptor in PermissionCatalogue.all where requested.contains(descriptor.permission) && !descriptor.isAlwaysGranted {
            switch statuses[descriptor.permission] {
            case .granted: alreadyGranted.append(descriptor.permission)
            case .declined where !rerequest: break
            default: asked.append(descriptor.permission)
            }
        }
        self.asked = asked
        self.alreadyGranted = alreadyGranted
    }
}
