// The framework's floor for `graph_throughput.py`: a Hummingbird application with Kinship's
// defaults (the NIO singleton event loops, HTTP/1.1) and one route that does no work, with no
// middleware. Whatever latency it shows at a given load, no route of Kinship's can beat.
//
// Usage: BareHummingbird PORT   (listens on 127.0.0.1; prints "listening" once it does)
import Foundation
import Hummingbird

guard CommandLine.arguments.count == 2, let port = Int(CommandLine.arguments[1]) else {
    fatalError("usage: BareHummingbird PORT")
}
let router = Router()
router.get("/healthz") { _, _ in "ok" }
let application = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { _ in FileHandle.standardOutput.write(Data("listening\n".utf8)) }
)
try await application.runService()
