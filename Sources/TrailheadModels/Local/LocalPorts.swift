import Foundation
import TrailheadSupport

#if canImport(Glibc)
import Glibc
#endif

/// Ports on 127.0.0.1 for the managed server.
enum LocalPorts {
    /// A port the kernel considers free right now (bind to port 0, read it back, release it).
    /// Another program may take it before the server binds: the lifecycle then tries another.
    static func freePort() throws(ModelError) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .localServer(message: "cannot create a socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard let port = LoopbackSocket.bindLoopback(fd, port: 0) else {
            throw .localServer(message: "cannot find a free port on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        return port
    }

    /// Whether something already listens on (or holds) `port` on 127.0.0.1.
    static func isInUse(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return LoopbackSocket.bindLoopback(fd, port: port) == nil
    }
}
