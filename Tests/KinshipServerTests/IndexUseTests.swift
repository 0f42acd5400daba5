import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer
@testable import kinship

/// The busy paths of a platform with many people read through indexes: on a generated platform,
/// every statement that a login, `/me`, friend pages, a friend request and its acceptance, the
/// people search and the sample's friend picker run is explained, and none may read a whole table.
/// (Benchmarks/scale.py measures the same paths at a million people.)
@Suite("The busy paths use indexes", .timeLimit(.minutes(5)))
struct IndexUseTests {
    @Test("no statement of the busy paths reads a whole table, on a generated platform of 2,000 people", arguments: TestEngine.enabled)
    func busyPathsUseIndexes(engine: TestEngine) async throws {
        try await withLiveServer(engine, builtInApps: [.sample], recordingStatements: true) { server in
            var population = Population(people: 2_000)
            population.password = testPassword
            population.mostFriends = 300
            let report = try await server.platform.populate(population)
            let probe = try #require(report.probes.first { $0.role == "typical" })
            let app = try await server.makeApp()
            let friendIDs = try await server.platform.friends.friendIDs(of: probe.id)
            for friendID in friendIDs {
                for appID in [app.id, BuiltInApp.sample.id] {
                    _ = try await server.platform.authorizations.recordConsent(
                        userID: friendID,
                        appID: appID,
                        granted: [.userFriends],
                        declined: []
                    )
                }
            }
            // The generated logins hold tokens, as on a platform in use: with a handful of rows in
            // access_tokens PostgreSQL may walk a whole index of it (in the order a join could use)
            // as cheaply as it looks one token up, and the check would fail by chance. The tables
            // are analyzed again after the consents above.
            if engine == .postgres { try await server.platform.database.write { sql in try await sql.raw("ANALYZE").run() } }

            server.platform.database.forgetRecordedStatements()
            let browser = server.browser()
            let token = try await server.logInAndGetToken(app, scope: [.email, .userFriends], browser: browser, login: probe.email)
            #expect(try await server.graph("/me?fields=id,name,email", token: token).0 == .ok)
            let (firstStatus, first) = try await server.graph("/me/friends?limit=10", token: token)
            #expect(firstStatus == .ok)
            #expect((first["data"] as? [Any])?.count == 10, "the probe's friends fill more than a page")
            let nextURL = try #require((first["paging"] as? [String: Any])?["next"] as? String)
            let next = try #require(URLComponents(string: nextURL))
            #expect(try await server.graph(next.path + "?" + (next.percentEncodedQuery ?? ""), token: token).0 == .ok)

            #expect(try await browser.logIn(probe.email).status == .seeOther)
            // Generated people's ids count up from 100000000000000.
            let strangerID = try #require(
                (0..<report.people).map { String(100_000_000_000_000 + $0) }.first { $0 != probe.id && !friendIDs.contains($0) }
            )
            let stranger = try #require(try await server.platform.users.find(id: strangerID))
            let friends = try await browser.get("/account/friends")
            let requested = try await browser.post(
                "/account/friends",
                form: ["csrf_token": try #require(friends.csrfToken), "action": "request", "user_id": stranger.id]
            )
            #expect(requested.location?.contains("notice=requested") == true)
            let strangerBrowser = server.browser()
            #expect(try await strangerBrowser.logIn(stranger.email).status == .seeOther)
            let strangersPage = try await strangerBrowser.get("/account/friends")
            let accepted = try await strangerBrowser.post(
                "/account/friends",
                form: ["csrf_token": try #require(strangersPage.csrfToken), "action": "accept", "user_id": probe.id]
            )
            #expect(accepted.location?.contains("notice=accepted") == true)
            let someone = try #require(try await server.platform.users.find(id: friendIDs[0]))
            let search = try await browser.get("/account/friends?q=" + FormParameters.encode(String(someone.name.prefix(3))))
            #expect(search.status == .ok)

            let dialog = try #require(try await browser.get("/sample/login").location)
            _ = try await browser.finishSampleLogin(server, dialog: dialog, untick: [])
            let picker = try await browser.json("/sample/friends.json")
            #expect((picker["total"] as? Int ?? 0) >= 10, "the picker lists the friends who use the sample")

            let plans = try await server.platform.database.recordedQueryPlans()
            #expect(plans.count > 30, "the paths ran \(plans.count) distinct statements")
            let scans = plans.filter { !$0.fullScans.isEmpty }
            let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("plans-\(UUID().uuidString).txt").path
            defer { try? FileManager.default.removeItem(atPath: reportPath) }
            try await QueryPlanReport.write(server.platform.database, to: reportPath, logger: .init(label: "test"))
            let written = try String(contentsOfFile: reportPath, encoding: .utf8)
            // The server's background work (callbacks due, say) may have run a statement or two since.
            let header = try #require(written.split(separator: "\n").first).split(separator: " ")
            #expect(Int(header[1]) ?? 0 >= plans.count && header[2...].joined(separator: " ") == "statements; 0 read a whole table")
            #expect(!written.contains(probe.email) && !written.contains(token), "the report holds SQL and plans, never values")
            #expect(
                scans.isEmpty,
                "statements that read whole tables:\n\(scans.map { "\($0.fullScans) — \($0.sql)\n  " + $0.steps.joined(separator: "\n  ") }.joined(separator: "\n"))"
            )
        }
    }
}
