import KinshipCore
import Testing

@Suite struct PermissionTests {
    @Test func scopesSplitOnCommasAndSpaces() {
        #expect(Permission.list(fromScope: "email, user_friends email  public_profile,,") == [.email, .userFriends, .publicProfile])
        #expect(Permission.list(fromScope: "") == [])
        #expect(Permission.scope(of: [.email, .userFriends]) == "email,user_friends")
    }

    @Test func catalogueKnowsEveryPermissionOnce() {
        let names = PermissionCatalogue.all.map(\.permission)
        #expect(Set(names).count == names.count)
        #expect(PermissionCatalogue.descriptor(for: .publicProfile)?.isAlwaysGranted == true)
        #expect(PermissionCatalogue.descriptor(for: .publishActions)?.kind == .publish)
        #expect(!PermissionCatalogue.contains("read_mailbox"))
    }

    @Test func onlyKnownPermissionsOutsideEveryLoginAreRevocableAlone() {
        #expect(PermissionCatalogue.isRevocableAlone(.email))
        #expect(PermissionCatalogue.isRevocableAlone(.publishActions))
        #expect(!PermissionCatalogue.isRevocableAlone(.publicProfile))
        #expect(!PermissionCatalogue.isRevocableAlone(Permission("manage_everything")))
    }
}
