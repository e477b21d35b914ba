import Foundation
import TrailheadPluginKit
import VCard

/// The contacts file, read at open and read again whenever its modification time or size
/// changes, so edits show up without restarting the agent.
final class ContactBook: @unchecked Sendable {
    static let shared = ContactBook()

    /// What one read of the file gave.
    struct Snapshot {
        var search: ContactSearch
        var warnings: [VCardWarning]
        var stamp: FileStamp
    }

    /// Identifies a version of the file without reading it.
    struct FileStamp: Equatable {
        var modified: Date?
        var size: Int
    }

    private let lock = NSLock()
    private var path: String?
    private var snapshot: Snapshot?

    /// Reads the file; throws (so the plugin refuses to open) when it is missing, unreadable or too large.
    func open(path: String) throws {
        let fresh = try Self.load(path)
        lock.withLock {
            self.path = path
            self.snapshot = fresh
        }
    }

    /// The current contacts, re-read first when the file changed. When a re-read fails, the last
    /// good contacts are kept and the failure is returned as a warning.
    func current() throws -> (snapshot: Snapshot, reloadProblem: String?) {
        let (path, old) = lock.withLock { (self.path, self.snapshot) }
        guard let path, let old else {
            throw ToolFailure("the contacts plugin was not opened with a contacts file")
        }
        guard let stamp = Self.stamp(path) else {
            return (old, "contacts file \(path) is gone; showing the contacts read before")
        }
        if stamp == old.stamp { return (old, nil) }
        do {
            let fresh = try Self.load(path)
            lock.withLock { self.snapshot = fresh }
            return (fresh, nil)
        } catch {
            return (old, "\(error); showing the contacts read before")
        }
    }

    private static func load(_ path: String) throws(VCardFileError) -> Snapshot {
        let before = stamp(path)
        let result = try VCardReader.read(contentsOfFile: path)
        return Snapshot(
            search: ContactSearch(contacts: result.contacts), warnings: result.warnings,
            stamp: before ?? FileStamp(modified: nil, size: 0))
    }

    private static func stamp(_ path: String) -> FileStamp? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        return FileStamp(
            modified: attributes[.modificationDate] as? Date,
            size: (attributes[.size] as? NSNumber)?.intValue ?? 0)
    }
}
