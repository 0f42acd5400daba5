#if canImport(Glibc)
import Glibc
#endif

/// A port on 127.0.0.1 held by a socket that is bound but never listens: connections to it are
/// refused (a server that is down), and no other socket can take it meanwhile (the socket does not
/// set SO_REUSEADDR), until ``release()`` frees it for the test's own server to listen on.
final class ReservedPort: @unchecked Sendable {
    let port: Int
    private var descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ReservedPortError.noSocket }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            close(descriptor)
            throw ReservedPortError.noSocket
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Frees the port.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

enum ReservedPortError: Error {
    case noSocket
}
