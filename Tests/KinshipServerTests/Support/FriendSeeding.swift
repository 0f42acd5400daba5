import Foundation
import KinshipCore

@testable import KinshipServer

extension LiveServer {
    /// Makes `count` friends of `person` who use `app` and granted it user_friends, named
    /// "`prefix` NNN" in a shuffled order.
    func makeFriends(of person: UserRecord, app: TestApp, count: Int, prefix: String) async throws -> [UserRecord] {
        var friends: [UserRecord] = []
        for index in 0..<count {
            let friend = try await platform.users.create(
                NewUser(
                    name: "\(prefix) \(String(format: "%03d", (index * 37) % count))",
                    email: "\(prefix.lowercased())\(index)@example.com",
                    password: testPassword
                )
            )
            try await platform.friends.befriend(person.id, friend.id)
            _ = try await platform.authorizations.recordConsent(userID: friend.id, appID: app.id, granted: [.userFriends], declined: [])
            friends.append(friend)
        }
        return friends
    }
}
