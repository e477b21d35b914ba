#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files with the system's own error text ("No such file or directory"), which
/// says more to a command-line user than Foundation's localized descriptions.
public enum FileBytes {
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public var path: String
        /// `strerror` of the failing call, or why the file is unusable.
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw ReadError(path: path, reason: "is a directory")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
