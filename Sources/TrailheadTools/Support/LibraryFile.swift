import TrailheadSupport
import Foundation

/// A plugin library file and its sha256 pin, re-checked whenever the file changes on disk.
///
/// Hashing is done once per change of (device, inode, size, mtime), so workers can be restarted
/// cheaply while a swapped file is still caught before it is loaded.
final class LibraryFile: @unchecked Sendable {
    struct Fingerprint: Equatable, Sendable {
        var device: UInt64, inode: UInt64, size: Int64, modified: Int, modifiedNanoseconds: Int
    }

    let path: String
    let pin: String?
    private var verified: Fingerprint?
    private let lock = NSLock()

    init(path: String, pin: String?) {
        self.path = path
        self.pin = pin
    }

    var fileName: String { (path as NSString).lastPathComponent }

    func fingerprint() -> Fingerprint? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Fingerprint(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: info.st_mtim.tv_sec, modifiedNanoseconds: info.st_mtim.tv_nsec)
    }

    /// Checks the file against its pin (when it has one); throws a message naming both digests.
    func verify() throws(PluginLoadError) {
        lock.lock()
        defer { lock.unlock() }
        guard let current = fingerprint() else { throw PluginLoadError("\(fileName): no such file at \(path)") }
        guard current != verified else { return }
        if let pin {
            let digest: String
            do { digest = try SHA256.hex(ofFileAt: path) } catch { throw PluginLoadError("\(fileName): cannot read it to check its sha256") }
            guard digest == pin else {
                throw PluginLoadError("\(fileName): sha256 mismatch: the manifest pins \(pin) but the file's is \(digest)")
            }
        }
        verified = current
    }
}
