import Foundation
import Testing

@testable import kinship

/// How `kinship serve` reads the processors it may run on from `/proc/self/status`.
@Suite("Processor affinity")
struct ProcessorAffinityTests {
    @Test(
        "Cpus_allowed_list names single processors and ranges",
        arguments: [("0", 1), ("0-1", 2), ("3", 1), ("0-3,8,10-11", 7), ("0,2,4,6", 4)]
    )
    func counts(list: String, expected: Int) {
        let status = "Name:\tkinship\nCpus_allowed:\tff\nCpus_allowed_list:\t\(list)\nMems_allowed:\t1\n"
        #expect(ProcessorAffinity.allowedProcessors(status: status) == expected)
    }

    @Test(
        "a status without the line, or with one that is not a list, says nothing",
        arguments: ["", "Cpus_allowed_list:\t", "Cpus_allowed_list:\t3-1", "Cpus_allowed_list:\tx"]
    )
    func unreadable(status: String) {
        #expect(ProcessorAffinity.allowedProcessors(status: "Name:\tkinship\n" + status) == nil)
    }

    #if os(Linux)
    @Test("this process's own status names at least one processor")
    func ownStatus() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        #expect((ProcessorAffinity.allowedProcessors(status: status) ?? 0) >= 1)
    }
    #endif
}
