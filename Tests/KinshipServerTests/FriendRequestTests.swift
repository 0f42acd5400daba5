import Foundation
import Testing

@testable import KinshipServer

@Suite("Friend requests", .timeLimit(.minutes(3)))
struct FriendRequestTests {
    private func people(_ platform: Platform) async throws -> (UserRecord, UserRecord, UserRecord) {
        (
            try await platform.users.create(NewUser(name: "Ada Lovelace", email: "ada@example.com", password: "12345678")),
            try await platform.users.create(NewUser(name: "Grace Hopper", email: "grace@example.com", password: "12345678")),
            try await platform.users.create(NewUser(name: "Alan Turing", email: "alan@example.com", password: "12345678"))
        )
    }

    @Test("a request waits, is listed on both sides, and makes friends once accepted", arguments: TestEngine.enabled)
    func acceptance(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let (ada, grace, _) = try await people(platform)
            let friends = platform.friends
            #expect(try await friends.sendRequest(from: ada.id, to: grace.id) == .requested)
            #expect(try await friends.sendRequest(from: ada.id, to: grace.id) == .alreadyRequested)
            #expect(try await friends.incomingRequests(for: grace.id).map(\.fromUserID) == [ada.id])
            #expect(try await friends.outgoingRequests(of: ada.id).map(\.toUserID) == [grace.id])
            #expect(try await friends.areFriends(ada.id, grace.id) == false, "a request is not a friendship")

            try await friends.accept(requestFrom: ada.id, to: grace.id)
            #expect(try await friends.areFriends(ada.id, grace.id))
            #expect(try await friends.areFriends(grace.id, ada.id))
            #expect(try await friends.incomingRequests(for: grace.id).isEmpty)
            #expect(try await friends.sendRequest(from: grace.id, to: ada.id) == .alreadyFriends)
            await #expect(throws: FriendRequestError.noSuchRequest(from: ada.id, to: grace.id)) {
                try await friends.accept(requestFrom: ada.id, to: grace.id)
            }
        }
    }

    @Test("asking someone who already asked you makes you friends; declining, withdrawing and unfriending", arguments: TestEngine.enabled)
    func otherAnswers(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let (ada, grace, alan) = try await people(platform)
            let friends = platform.friends
            _ = try await friends.sendRequest(from: grace.id, to: ada.id)
            #expect(try await friends.sendRequest(from: ada.id, to: grace.id) == .becameFriends)
            #expect(try await friends.outgoingRequests(of: grace.id).isEmpty)

            _ = try await friends.sendRequest(from: alan.id, to: ada.id)
            try await friends.dropRequest(from: alan.id, to: ada.id)
            #expect(try await friends.incomingRequests(for: ada.id).isEmpty)
            await #expect(throws: FriendRequestError.noSuchRequest(from: alan.id, to: ada.id)) {
                try await friends.dropRequest(from: alan.id, to: ada.id)
            }

            try await friends.unfriend(grace.id, ada.id)
            #expect(try await friends.areFriends(ada.id, grace.id) == false)
            #expect(try await friends.friendIDs(of: ada.id).isEmpty)

            _ = try await friends.sendRequest(from: alan.id, to: grace.id)
            try await friends.befriend(alan.id, grace.id)
            #expect(try await friends.outgoingRequests(of: alan.id).isEmpty, "the admin's direct friendship clears the request")

            await #expect(throws: AccountError.invalid("A person cannot befriend themselves.")) {
                try await friends.sendRequest(from: ada.id, to: ada.id)
            }
            await #expect(throws: AccountError.unknownUser("nobody")) { try await friends.sendRequest(from: ada.id, to: "nobody") }
        }
    }
}
