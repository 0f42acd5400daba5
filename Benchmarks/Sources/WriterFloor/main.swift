// The SQLite floor of a code exchange's write, for issue 14's benchmark (openid_throughput.py runs
// it on a copy of the benchmark's database before the server is measured).
//
// An exchange by a public app asking for `openid` is one write transaction in `kinship serve`
// (RedemptionStore, with SQLiteTokenTables' statements): read the code, spend it, read the login
// with its permissions and the person, store an access token and a refresh token. Here those same
// statements run through SQLite's C API with nothing around them — prepared once, every column of
// every row read, one BEGIN IMMEDIATE … COMMIT per exchange, WAL with synchronous=NORMAL as the
// server's writer opens it — so the server's writer thread can be compared with what SQLite itself
// takes. Codes and tokens are made before the clock starts; times are literals where the server
// binds them.
//
// Prints {"write_cpu_us": N} (this process's CPU per exchange); exits 1 with SQLite's message when
// a statement fails.
//
// Usage: WriterFloor DATABASE APP-ID [COUNT=10000]
import CSystemSQLite
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: WriterFloor DATABASE APP-ID [COUNT=10000]\n".utf8))
    exit(2)
}
let count = arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000
do {
    let floor = try SQLiteFloor(path: arguments[1])
    let microseconds = try floor.exchangeWrites(count: count, login: try floor.login(of: arguments[2]))
    print(#"{"write_cpu_us": \#(String(format: "%.1f", microseconds))}"#)
} catch {
    FileHandle.standardError.write(Data("WriterFloor: \(error)\n".utf8))
    exit(1)
}
