import Foundation

#if KINSHIP_FUZZING
/// The target libFuzzer drives, chosen by `KINSHIP_FUZZ_TARGET` (scripts/fuzz sets it).
nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt
{
    let name = ProcessInfo.processInfo.environment["KINSHIP_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.named(name) else {
        FileHandle.standardError.write(Data("Set KINSHIP_FUZZ_TARGET to one of: \(FuzzTarget.all.map(\.name).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    selected?.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
/// Without libFuzzer: replays corpus files through the targets, so a crash found by fuzzing (or
/// the seed corpus) can be rerun in an ordinary build and a debugger.
///
///     kinship-fuzz list
///     kinship-fuzz TARGET FILE-OR-FOLDER...
@main
struct CorpusReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, name != "list", name != "--help" else {
            print("Targets (Fuzz/corpus/TARGET holds the seeds):")
            for target in FuzzTarget.all { print("  \(target.name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(target.summary)") }
            print("Usage: kinship-fuzz TARGET FILE-OR-FOLDER...   (to fuzz: scripts/fuzz [SECONDS] [TARGET...])")
            return
        }
        guard let target = FuzzTarget.named(name) else {
            FileHandle.standardError.write(Data("No target \(name); `kinship-fuzz list` lists them.\n".utf8))
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                data.withUnsafeBytes { target.run($0) }
                count += 1
            }
        }
        print("\(name): \(count) inputs replayed, no crash")
    }

    static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }
}
#endif
