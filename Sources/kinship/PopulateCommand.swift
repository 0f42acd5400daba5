import ArgumentParser
import Foundation
import KinshipServer

/// `kinship populate`: a generated platform in an empty database, for benchmarks and trials.
struct PopulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "populate",
        abstract: "Fill an empty database with generated people, friendships, apps and logins; prints a JSON summary.",
        discussion: """
            For trying the platform at scale and for its benchmarks, never beside real people: it refuses a database \
            that has anyone in it. People get names in several scripts (Latin, Chinese, Cyrillic, Greek), emails \
            personN@people.example and one password (--password, kinship-demo by default); how many friends they have \
            is skewed as on real networks (most a few dozen, a few thousands). Every tenth app has no owner; each \
            person uses up to three apps, the first ones most, and each login holds a long-lived token that no one \
            has (its stored hash is no digest a token could have).

            The summary names two people to measure with: "typical" (about --average-friends friends) and \
            "busiest". A million people take a few minutes on SQLite and a few GB of disk; the same seed makes the \
            same platform.
            """
    )

    @OptionGroup var storage: DatabaseOptions
    @Option(help: "How many people.") var people: Int
    @Option(name: .customLong("average-friends"), help: "Friends a person has on average.") var averageFriends = 50
    @Option(name: .customLong("most-friends"), help: "The most friends anyone has.") var mostFriends = 5_000
    @Option(help: "How many apps (default: one for every 50 people).") var apps: Int?
    @Option(help: "The generator's seed: the same seed makes the same platform.") var seed: UInt64 = 1
    @Option(help: "Every generated person's password.") var password = "kinship-demo"

    func validate() throws {
        guard people >= 2 else { throw ValidationError("--people must be at least 2.") }
        guard averageFriends >= 1, mostFriends >= averageFriends else {
            throw ValidationError("--average-friends must be at least 1, and --most-friends at least as many.")
        }
        if let apps, apps < 1 { throw ValidationError("--apps must be at least 1.") }
    }

    func run() async throws {
        var population = Population(people: people)
        population.averageFriends = averageFriends
        population.mostFriends = mostFriends
        population.apps = apps ?? population.apps
        population.seed = seed
        population.password = password
        let line = ProgressLine()
        let report = try await storage.withPlatform { platform in
            try await platform.populate(population) { line.show($0) }
        }
        line.finish()
        try JSONOutput.print(report)
    }
}

/// One progress line on standard error, rewritten in place on a terminal and printed every tenth of
/// a step (and at its end) otherwise.
private final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let rewrites = isatty(STDERR_FILENO) == 1
    private var shown: (step: String, tenth: Int)?
    /// When the step under way began: when the one before it last reported.
    private var started = ContinuousClock.now
    private var lastReport = ContinuousClock.now

    func show(_ progress: PopulationProgress) {
        lock.lock()
        defer { lock.unlock() }
        if shown?.step != progress.step { started = lastReport }
        lastReport = ContinuousClock.now
        let tenth = progress.total == 0 ? 10 : progress.done * 10 / progress.total
        if !rewrites, shown?.step == progress.step, shown?.tenth == tenth { return }
        shown = (progress.step, tenth)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? " · \(Int(Double(progress.done) / seconds).formatted()) a second" : ""
        let percent = progress.total == 0 ? 100 : progress.done * 100 / progress.total
        let text =
            progress.total <= 1
            ? progress.step + (progress.done < progress.total ? "…" : ": done")
            : "\(progress.step): \(progress.done.formatted()) of \(progress.total.formatted()) (\(percent)%)\(rate)"
        FileHandle.standardError.write(Data((rewrites ? "\r\u{1B}[K" + text : text + "\n").utf8))
    }

    func finish() {
        if rewrites { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
