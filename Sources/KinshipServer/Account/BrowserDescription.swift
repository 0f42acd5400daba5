/// A short name for the browser behind a `User-Agent`, as the security page lists sessions:
/// "Firefox on Linux", "Safari on iPhone", or the first words of anything else.
enum BrowserDescription {
    static func describe(userAgent: String?) -> String {
        guard let agent = userAgent, !agent.isEmpty else { return "An unknown browser" }
        let browsers: [(marker: String, name: String)] = [
            ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chromium/", "Chromium"), ("Chrome/", "Chrome"),
            ("Safari/", "Safari"), ("curl/", "curl"), ("python-requests/", "Python requests"),
        ]
        let systems: [(marker: String, name: String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"), ("Mac OS X", "macOS"),
            ("CrOS", "ChromeOS"), ("Linux", "Linux"),
        ]
        guard let browser = browsers.first(where: { agent.contains($0.marker) })?.name else {
            return String(agent.prefix(40))
        }
        guard let system = systems.first(where: { agent.contains($0.marker) })?.name else { return browser }
        return browser + " on " + system
    }
}
