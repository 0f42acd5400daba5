import Foundation
import KinshipXMPP

#if canImport(FoundationXML)
import FoundationXML
#endif

// KinshipXMPP's stream parser against Foundation's XMLParser (libxml2's SAX parser) on the same
// ~1 MB roster, side by side in one run. The baseline only counts elements; ours builds the tree.
// The input is a stream Prosody sent (a file recorded by Benchmarks/record_roster.py, given as
// the argument), or without one a roster generated in Prosody's format.
let recordingPath = CommandLine.arguments.dropFirst().first
let input = recordingPath.flatMap { FileManager.default.contents(atPath: $0) }.map { Array($0) } ?? RosterRecording.make(count: 10_000)
let megabytes = Double(input.count) / 1_000_000

func parseWithKinship(chunkSize: Int) -> Int {
    var parser = XMLStreamParser()
    var stanzas = 0
    var start = 0
    while start < input.count {
        let end = min(input.count, start + chunkSize)
        for event in try! parser.feed(input[start..<end]) {
            if case .stanza(let element) = event { stanzas += element.child("query")?.elements.count ?? 0 }
        }
        start = end
    }
    return stanzas
}

final class ElementCounter: NSObject, XMLParserDelegate {
    var count = 0
    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if elementName == "item" { count += 1 }
    }
}

func parseWithFoundation() -> Int {
    let parser = XMLParser(data: Data(input))
    let counter = ElementCounter()
    parser.delegate = counter
    parser.shouldProcessNamespaces = true
    parser.parse()
    return counter.count
}

func median(runs: Int, _ body: () -> Int) -> (Duration, Int) {
    var times: [Duration] = []
    var result = 0
    for _ in 0..<runs {
        let clock = ContinuousClock()
        let start = clock.now
        result = body()
        times.append(clock.now - start)
    }
    return (times.sorted()[runs / 2], result)
}

func throughput(_ duration: Duration) -> Double {
    megabytes / (Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
}

print(
    "XML stream parse: \(recordingPath.map { "the recorded stream \($0)" } ?? "a generated roster of 10,000 items"), "
        + "\(String(format: "%.2f", megabytes)) MB, median of 15 runs\n"
)
_ = parseWithKinship(chunkSize: 16_384)
_ = parseWithFoundation()
let (ours, ourItems) = median(runs: 15) { parseWithKinship(chunkSize: 16_384) }
let (oursSmall, _) = median(runs: 15) { parseWithKinship(chunkSize: 1_400) }
let (baseline, baselineItems) = median(runs: 15) { parseWithFoundation() }
precondition(ourItems > 0 && ourItems == baselineItems, "both parsers must see every item")
print("roster items: \(ourItems)")
let rows = [
    ("KinshipXMPP, 16 KB reads (tree)", ours), ("KinshipXMPP, 1,400 B reads (tree)", oursSmall),
    ("Foundation XMLParser (count only)", baseline),
]
for (name, duration) in rows {
    print("\(name.padding(toLength: 36, withPad: " ", startingAt: 0))\(String(format: "%8.1f", throughput(duration))) MB/s")
}
let ratio = throughput(ours) / throughput(baseline)
print("\nratio KinshipXMPP ÷ XMLParser: \(String(format: "%.2f", ratio))×   target ≥ 50 MB/s: \(throughput(ours) >= 50 ? "✓" : "✗ MISSED")")
