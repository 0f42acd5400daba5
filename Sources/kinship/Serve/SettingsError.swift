/// A setting of `kinship serve` that cannot be used, said with where it came from and what to do.
struct SettingsError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
