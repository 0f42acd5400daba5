import KinshipCore
import Testing

@Suite struct PermissionTests {
    @Test func scopesSplitOnCommasAndSpaces() {
        #expect(Permission.list(fromScope: "email, user_friends email  public_profile,,") == [.email, .userFriends, .publicProfile])
        #expect(Permission.list(fromScope: "") == [])
        #expect(Permission.list(fromScope: "openid\tprofile\r\nemail\u{0B}public_profile\u{0C}email") == [.openID, .publicProfile, .email])
        #expect(
            Permission.list(fromScope: "email\u{00A0}user_friends\u{2003}profile, e\u{0301}mail") == [
                .email, .userFriends, .publicProfile, "e\u{0301}mail",
            ],
            "outside ASCII, Unicode's white space separates names too"
        )
        let many = (0..<40).map { "p\($0 % 20)" }.joined(separator: " ")
        #expect(Permission.list(fromScope: many) == (0..<20).map { Permission("p\($0)") }, "a long scope drops its repeats too")
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
