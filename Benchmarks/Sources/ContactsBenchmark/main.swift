import Foundation
import KinshipContacts

// KinshipContacts against the reference documents' approach, side by side in one run.
let count = 10_000
var generator = NameGenerator(seed: 2026)
let contacts = generator.contacts(count)
let names = contacts.map(\.name)
let keystrokes = ["z", "zh", "zha", "zhang", "e", "em", "emi", "emile", "k", "ki", "lo", "love", "zs", "wy", "ou"]

func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

print("KinshipContacts benchmark: \(count) generated contacts (40% Chinese, 35% Latin with accents, 15% other scripts, 10% junk)")
print("Each figure is a median of repeated runs; Kinship and the baseline run in this one process.\n")

// Warm both up once (table loading, ICU initialisation), outside the timings.
blackHole(ContactList(contacts))
blackHole(ReferenceContactList(names: Array(names.prefix(200))))

var list = ContactList(contacts)
var reference = ReferenceContactList(names: names)
print("sections: Kinship \(list.indexTitles.joined()), baseline \(reference.sections.map(\.title).joined())\n")

// Lists are kept until after the timing, so a figure is the build and not the previous list's deallocation.
var built: [ContactList] = []
let buildOurs = Stopwatch.median(runs: 21) { built.append(ContactList(contacts)) }
built.removeAll()
let buildBaseline = Stopwatch.median(runs: 3) { blackHole(ReferenceContactList(names: names).sections.count) }

var searchOurs: [Duration] = []
var searchBaseline: [Duration] = []
for text in keystrokes {
    searchOurs.append(
        Stopwatch.median(runs: 9) {
            var filtered = list
            filtered.searchText = text
            blackHole(filtered.numberOfSections)
        }
    )
    searchBaseline.append(Stopwatch.median(runs: 3) { blackHole(reference.filtered(by: text).count) })
}

var insertTimes: [Duration] = []
for index in 0..<200 {
    let contact = Contact(id: "new-\(index)", name: generator.name())
    let start = ContinuousClock.now
    let change = list.insert(contact)
    insertTimes.append(ContinuousClock.now - start)
    blackHole(change)
    list.remove(id: contact.id)
}
let insertOurs = insertTimes.sorted()[insertTimes.count / 2]
let insertBaseline = Stopwatch.median(runs: 3) { blackHole(ReferenceContactList(names: names + ["新人"]).sections.count) }

func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }

func row(_ label: String, _ ours: Duration, _ baseline: Duration, target: String, met: Bool) {
    let ratio = baseline.milliseconds / max(ours.milliseconds, 0.000_001)
    print(
        label.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(format: "%10.3f ms %12.3f ms %9.1f×   ", ours.milliseconds, baseline.milliseconds, ratio)
            + target + (met ? "  ✓" : "  ✗ MISSED")
    )
}

print("                                     Kinship        baseline     ratio   target")
let buildRatio = buildBaseline.milliseconds / buildOurs.milliseconds
row(
    "build sections, 10,000 contacts",
    buildOurs,
    buildBaseline,
    target: "≤ 30 ms and ≥ 10×",
    met: buildOurs.milliseconds <= 30 && buildRatio >= 10
)
row(
    "one search keystroke (median)",
    median(searchOurs),
    median(searchBaseline),
    target: "≤ 2 ms",
    met: median(searchOurs).milliseconds <= 2
)
row(
    "one insert with its change set",
    insertOurs,
    insertBaseline,
    target: "≤ 1 ms (baseline rebuilds)",
    met: insertOurs.milliseconds <= 1
)
print(
    "\nslowest keystroke: Kinship \(String(format: "%.3f", searchOurs.max()!.milliseconds)) ms (\"\(keystrokes[searchOurs.firstIndex(of: searchOurs.max()!)!])\")"
)
