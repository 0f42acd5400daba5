// Where a session keeps its token, and how to follow its state.

// snippet.hide
import Foundation
import KinshipKit

// snippet.show
// snippet.caches
// On this device only, in a folder readable by the owner alone:
let fileCache = FileTokenCache(folder: FileTokenCache.defaultFolder()) { problem in
    print("Token cache: \(problem)")  // A corrupt file is moved aside and reported here.
}
// For tests and previews:
let memoryCache = MemoryTokenCache()
// Shared between devices through the platform's token-cache service, sealed with a secret that
// only the person's devices know:
let secret = RemoteTokenCache.Secret.random()
let remoteCache = RemoteTokenCache(serverURL: URL(string: "https://kinship.example.com")!, secret: secret)
// snippet.end

// snippet.changes
let session = try await Session(appID: "1234567890", cache: fileCache)
let changes = await session.changes
let observer = Task {
    for await change in changes {
        print("\(change.from.rawValue) → \(change.to.rawValue)")
        if change.to == .closed, let reason = await session.closeReason {
            print("Logged out by the platform: \(reason)")
        }
    }
}
// snippet.end

// snippet.hide
observer.cancel()
_ = (memoryCache, remoteCache)
