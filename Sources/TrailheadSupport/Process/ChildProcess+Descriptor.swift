import CTrailheadSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// An anonymous in-memory file holding `bytes`, read from its start: data to hand a child
    /// on a descriptor (`Options.descriptors`) when it is too large for its command line (a
    /// single argument may not exceed 128 KB on Linux). The caller closes it after the spawn.
    public static func descriptor(holding bytes: [UInt8], name: String) throws(SpawnError) -> Int32 {
        let fd = th_memfd(name)
        guard fd >= 0 else { throw SpawnError(name, "cannot create an in-memory file: \(String(cString: strerror(-fd)))") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd)
                throw SpawnError(name, "cannot write an in-memory file: \(reason)")
            }
            offset += written
        }
        lseek(fd, 0, SEEK_SET)
        return fd
    }

    /// Everything readable from `fd` (to its end), for a child reading what was handed to it.
    public static func readAll(_ fd: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }
}
