import Foundation

extension ToolRegistry {
    /// Calls `handler` whenever the callable tools change: a plugin loaded, changed or removed
    /// by `refresh()`, quarantined after crashes, or let out of quarantine. (It may run on any
    /// thread, and must not call back into the registry synchronously while holding its own locks.)
    public func onToolsChanged(_ handler: @escaping @Sendable () -> Void) {
        observers.withLock { $0.append(handler) }
    }

    /// Reads the manifests folder again: loads manifests that appeared or changed (a plugin just
    /// registered), unloads those removed, and lifts quarantines whose library was replaced.
    /// Unchanged plugins keep their workers. Returns whether the tools changed.
    @discardableResult
    public func refresh() -> Bool {
        refreshing.withLock { _ in
            var changed = false
            for backend in loaded.withLock({ Array($0.backends.values) }) where backend.recheckQuarantine() { changed = true }
            let files = manifestFiles() ?? [:]
            let current = loaded.withLock { $0 }
            guard files != current.stamps else { return changed }

            // Keep what did not change; stop what changed or went away; load the rest.
            var kept = Loaded()
            var stale: [any PluginBackend] = []
            for record in current.records {
                let plugin = record.manifest?.plugin
                let backend = plugin.flatMap { current.backends[$0] }
                guard let stamp = files[record.manifestFile], stamp == current.stamps[record.manifestFile] else {
                    if let backend { stale.append(backend) }
                    continue
                }
                kept.records.append(record)
                kept.stamps[record.manifestFile] = stamp
                if let plugin, let backend { kept.backends[plugin] = backend }
            }
            for (name, tool) in current.toolsByName where kept.backends[tool.plugin] != nil { kept.toolsByName[name] = tool }
            for backend in stale { backend.shutdown() }
            let fresh = files.filter { kept.stamps[$0.key] == nil }
            var next = load(kept, files: fresh)
            next.stamps = files
            next.records.sort { $0.manifestFile < $1.manifestFile }
            loaded.withLock { $0 = next }
            notifyToolsChanged()
            return true
        }
    }

    func notifyToolsChanged() {
        for handler in observers.withLock({ $0 }) { handler() }
    }

    /// Every `*.json` in the manifests folder and what it is now; `nil` when the folder cannot be read.
    func manifestFiles() -> [String: FileStamp]? {
        let folder = configuration.manifestsFolder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var files: [String: FileStamp] = [:]
        for name in names where name.hasSuffix(".json") {
            let path = (folder as NSString).appendingPathComponent(name)
            files[path] = FileStamp(path: path)
        }
        return files
    }
}

/// What a file is on disk now: enough to notice that it was rewritten.
struct FileStamp: Sendable, Equatable {
    var inode: UInt64 = 0, size: Int64 = -1, modified: Int = 0, modifiedNanoseconds: Int = 0

    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
    }
}
