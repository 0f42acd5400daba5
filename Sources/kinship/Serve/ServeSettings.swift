import ArgumentParser
import Configuration
import Foundation
import Synchronization
import SystemPackage

/// Where `kinship serve` reads its settings, with swift-configuration: the command line first,
/// then the environment, then a JSON config file, then the built-in defaults.
///
/// One name per setting in all three: `--graph-calls-per-user` on the command line is
/// `KINSHIP_GRAPH_CALLS_PER_USER` in the environment and `"graph_calls_per_user"` in the file.
/// Every value read is remembered with where it came from, for `--print-config`.
@available(macOS 15, iOS 18, *)
struct ServeSettings: Sendable {
    /// A setting as it was read.
    struct Entry: Sendable {
        let key: String
        let value: String
        /// "command line", "environment KINSHIP_PORT", "file kinship.json" or "default".
        let source: String
        let isSecret: Bool
    }

    /// The settings whose values are secrets: never printed, masked in `--print-config`.
    static let secretKeys: Set<String> = ["database", "smtp_password"]

    /// What was read: each setting's value as text (the default's too) and the source it came from.
    final class Record: Sendable {
        let values = Mutex<[String: String]>([:])
        let sources = Mutex<[String: String]>([:])
    }

    private let reader: ConfigReader
    private let record: Record
    private let configFile: String?

    /// The settings of the command line (`flags`, by key), the environment and `configFile`.
    ///
    /// - Throws: `ValidationError` when the file cannot be read or names a setting that does not
    ///   exist (a typo would otherwise be ignored without a word).
    static func load(flags: [String: ConfigValue], configFile: String?, knownKeys: Set<String>) async throws -> ServeSettings {
        let record = Record()
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "command line", values: Dictionary(uniqueKeysWithValues: flags.map { (AbsoluteConfigKey([$0.key]), $0.value) })),
            EnvironmentVariablesProvider(secretsSpecifier: .specific(Set(secretKeys.map { "KINSHIP_" + $0.uppercased() })))
                .prefixKeys(with: "kinship"),
        ]
        if let configFile {
            try checkKeys(of: configFile, against: knownKeys)
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(configFile)))
            } catch {
                throw SettingsError(
                    "The config file \(configFile) could not be read as settings: give each one a string, number, "
                        + "true/false or (trusted_proxy) a list of strings, as in {\"port\": 8080}."
                )
            }
        }
        let reader = ConfigReader(providers: providers, accessReporter: SourceRecorder(record: record, configFile: configFile))
        return ServeSettings(reader: reader, record: record, configFile: configFile)
    }

    /// Refuses a config file with a setting that does not exist, naming it.
    private static func checkKeys(of file: String, against knownKeys: Set<String>) throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw SettingsError("Cannot read the config file \(file): check the path and that this user may read it.")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SettingsError("The config file \(file) is not a JSON object such as {\"port\": 8080}.")
        }
        if let unknown = object.keys.sorted().first(where: { !knownKeys.contains($0) }) {
            throw SettingsError(
                "The config file \(file) has an unknown setting \"\(unknown)\"; `kinship serve --help` lists them "
                    + "(--graph-calls-per-user is \"graph_calls_per_user\")."
            )
        }
    }

    func int(_ key: String, default value: Int) -> Int {
        noted(key, reader.int(forKey: ConfigKey([key]), default: value))
    }

    func int(_ key: String) -> Int? {
        noted(key, reader.int(forKey: ConfigKey([key])))
    }

    func double(_ key: String, default value: Double) -> Double {
        noted(key, reader.double(forKey: ConfigKey([key]), default: value))
    }

    func string(_ key: String, default value: String) -> String {
        noted(key, reader.string(forKey: ConfigKey([key]), default: value))
    }

    func string(_ key: String) -> String? {
        noted(key, reader.string(forKey: ConfigKey([key]), isSecret: Self.secretKeys.contains(key)))
    }

    func bool(_ key: String, default value: Bool) -> Bool {
        noted(key, reader.bool(forKey: ConfigKey([key]), default: value))
    }

    func strings(_ key: String) -> [String] {
        let values = reader.stringArray(forKey: ConfigKey([key]), default: [])
        record.values.withLock { $0[key] = values.isEmpty ? "(none)" : values.joined(separator: ",") }
        return values
    }

    private func noted<Value>(_ key: String, _ value: Value?) -> Value? {
        record.values.withLock { $0[key] = value.map { "\($0)" } ?? "(none)" }
        return value
    }

    private func noted<Value>(_ key: String, _ value: Value) -> Value {
        record.values.withLock { $0[key] = "\(value)" }
        return value
    }

    /// Every setting read so far, by key.
    var entries: [Entry] {
        let sources = record.sources.withLock { $0 }
        return record.values.withLock { $0 }.map { key, value in
            Entry(key: key, value: value, source: sources[key] ?? "default", isSecret: Self.secretKeys.contains(key))
        }.sorted { $0.key < $1.key }
    }

    /// Where `key`'s value came from, for error messages: "--port", "KINSHIP_PORT" or "port in FILE".
    func origin(of key: String) -> String {
        let source = record.sources.withLock { $0[key] } ?? "default"
        if source == "command line" { return "--" + key.replacingOccurrences(of: "_", with: "-") }
        if source.hasPrefix("environment") { return "KINSHIP_" + key.uppercased() }
        if source.hasPrefix("file") { return "\"\(key)\" in \(configFile ?? "the config file")" }
        return "the default " + key
    }
}

/// Records, for each setting read, the first provider that had a value for it.
@available(macOS 15, iOS 18, *)
private struct SourceRecorder: AccessReporter {
    let record: ServeSettings.Record
    let configFile: String?

    func report(_ event: AccessEvent) {
        let key = event.metadata.key.components.last ?? ""
        let provider = event.providerResults.first { result in
            if case .success(let lookup) = result.result, lookup.value != nil { return true }
            return false
        }?.providerName
        let source: String =
            switch provider {
            case nil: "default"
            case let name? where name.contains("command line"): "command line"
            case let name? where name.contains("Environment"): "environment KINSHIP_\(key.uppercased())"
            default: "file \(configFile ?? "")"
            }
        record.sources.withLock { $0[key] = source }
    }
}
