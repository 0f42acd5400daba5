import Foundation
import KinshipServer
import Logging
import NIOConcurrencyHelpers
import Testing

@Suite("Console log lines")
struct ConsoleLogHandlerTests {
    @Test("a line carries level, label, sorted metadata, source and message; quieter levels write nothing")
    func format() {
        let lines = NIOLockedValueBox<[String]>([])
        var logger = Logger(label: "kinship") { label in
            ConsoleLogHandler(label: label, logLevel: .info) { line in lines.withLockedValue { $0.append(line) } }
        }
        logger[metadataKey: "request"] = "r-1"
        logger.debug("not written")
        logger.info("Kinship is listening", metadata: ["url": "http://127.0.0.1:8080", "request": "r-2"], source: "KinshipServer")
        let written = lines.withLockedValue { $0 }
        #expect(written.count == 1)
        let line = written.first ?? ""
        #expect(line.hasSuffix(" info kinship: request=r-2 url=http://127.0.0.1:8080 [KinshipServer] Kinship is listening\n"))
        #expect(line.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} "#, options: .regularExpression) != nil)
    }

    @Test("an error attached to a line is written as metadata")
    func error() {
        struct Broken: Error, CustomStringConvertible { var description: String { "disk full" } }
        let lines = NIOLockedValueBox<[String]>([])
        let logger = Logger(label: "kinship") { label in
            ConsoleLogHandler(label: label, logLevel: .trace) { line in lines.withLockedValue { $0.append(line) } }
        }
        logger.error("Could not write", error: Broken())
        #expect(lines.withLockedValue { $0 }.first?.contains("error.message=disk full") == true)
    }
}
