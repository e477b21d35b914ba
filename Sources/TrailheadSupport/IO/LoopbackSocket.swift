import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Plain TCP on loopback over POSIX sockets: a free port for a child server, and the raw
/// connections tests use to send what no HTTP client would (HTTP itself is libmicrohttpd's and
/// libcurl's: see HTTPServer and HTTPClient).
public enum LoopbackSocket {
    /// Connects to `host:port`; the error names the address and the cause.
    public static func connect(host: String, port: Int) throws(HTTPError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let first = result else {
            throw HTTPError(.refused, "cannot resolve \(host)")
        }
        defer { freeaddrinfo(result) }
        var lastError = ECONNREFUSED
        var info: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = info {
            let fd = socket(candidate.pointee.ai_family, candidate.pointee.ai_socktype, candidate.pointee.ai_protocol)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                if Glibc.connect(fd, candidate.pointee.ai_addr, candidate.pointee.ai_addrlen) == 0 {
                    var one: Int32 = 1
                    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    return fd
                }
                lastError = errno
                close(fd)
            }
            info = candidate.pointee.ai_next
        }
        throw HTTPError(.refused, "\(host):\(port): \(String(cString: strerror(lastError)))")
    }

    /// Listens on 127.0.0.1:`port` (0 picks a free port); returns the socket and the port bound.
    public static func listen(port: Int, host: String = "127.0.0.1") throws(HTTPError) -> (fd: Int32, port: Int) {
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { throw HTTPError(.failed, "'\(host)' is not an IPv4 address") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPError(.failed, "socket: \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard let bound = bind(fd, address: address, port: port), Glibc.listen(fd, 256) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw HTTPError(.failed, "cannot listen on \(host):\(port): \(message)")
        }
        return (fd, bound)
    }

    /// Binds `fd` to 127.0.0.1:`port` (0 lets the kernel pick a free port) and returns the port
    /// bound, or nil (errno says why).
    public static func bindLoopback(_ fd: Int32, port: Int) -> Int? {
        bind(fd, address: in_addr(s_addr: inet_addr("127.0.0.1")), port: port)
    }

    private static func bind(_ fd: Int32, address ip: in_addr, port: Int) -> Int? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = ip
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// Sends all of `bytes` (without SIGPIPE: a peer that went away is an error, not a signal).
    public static func send(_ fd: Int32, _ bytes: [UInt8]) throws(HTTPError) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw HTTPError(.closed, "sending: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }
}
