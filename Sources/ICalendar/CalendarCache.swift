import Foundation

/// Keeps parsed calendars between calls and parses a file again only when it changed
/// (modification time, size or inode), so a tool answers from memory on most calls.
public final class CalendarCache: @unchecked Sendable {
    private struct Entry {
        var stamp: FileStamp
        var document: CalendarDocument
    }

    private var entries: [String: Entry] = [:]
    private let lock = NSLock()

    public init() {}

    /// The parsed calendar at `path`, reloaded when the file changed since the last call.
    public func document(at path: String) throws(CalendarError) -> CalendarDocument {
        let stamp = try FileStamp(path: path)
        lock.lock()
        defer { lock.unlock() }
        if let entry = entries[path], entry.stamp == stamp { return entry.document }
        let document = try CalendarDocument(contentsOfFile: path)
        entries[path] = Entry(stamp: stamp, document: document)
        return document
    }
}

/// What identifies one version of a file without reading it.
struct FileStamp: Equatable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int64
    var inode: UInt64

    init(path: String) throws(CalendarError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CalendarError("cannot read calendar '\(path)': \(String(cString: strerror(errno)))")
        }
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
        size = Int64(info.st_size)
        inode = UInt64(info.st_ino)
    }
}
