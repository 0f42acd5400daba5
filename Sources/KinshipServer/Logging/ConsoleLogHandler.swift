import Foundation
import Logging

/// Writes log lines in `StreamLogHandler`'s format
/// (`2026-11-22T10:04:05+0000 info kinship: hb.request.id=… [KinshipServer] message`), formatting
/// the metadata when a line is written.
///
/// `StreamLogHandler` formats its metadata whenever metadata is set. Hummingbird sets a request
/// id on the logger of every request, and at the usual levels almost none of those loggers
/// write a line, so that formatting was a few percent of the server's time under load.
public struct ConsoleLogHandler: LogHandler {
    public let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let write: @Sendable (String) -> Void

    /// A handler writing to standard error.
    public init(label: String, logLevel: Logger.Level) {
        self.init(label: label, logLevel: logLevel) { FileHandle.standardError.write(Data($0.utf8)) }
    }

    /// A handler handing each finished line, newline included, to `write`.
    public init(label: String, logLevel: Logger.Level, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.logLevel = logLevel
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var metadata = self.metadata
        if let explicit = event.metadata { metadata.merge(explicit) { _, explicit in explicit } }
        if let error = event.error {
            metadata["error.message"] = "\(error)"
            metadata["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pairs = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        write("\(Self.timestamp()) \(event.level) \(label):\(pairs) [\(event.source)] \(event.message)\n")
    }

    /// Local time, to the second, with its offset from UTC.
    private static func timestamp() -> String {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
