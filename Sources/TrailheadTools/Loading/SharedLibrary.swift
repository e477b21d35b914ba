import Foundation

/// A shared library opened with `dlopen(RTLD_NOW | RTLD_LOCAL)`. It is never closed: unloading a
/// Swift image breaks the host's type metadata, and a C one may have handed out pointers.
struct SharedLibrary: @unchecked Sendable {
    let path: String
    private let handle: UnsafeMutableRawPointer

    /// Opens `path` after checking that it is an ELF file, so a text file or a truncated download
    /// gets a plain message rather than whatever the dynamic loader makes of it.
    static func open(_ path: String) throws(PluginLoadError) -> SharedLibrary {
        let name = (path as NSString).lastPathComponent
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PluginLoadError("\(name): cannot read \(path)")
        }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        try? handle.close()
        guard magic == Data([0x7F, 0x45, 0x4C, 0x46]) else {
            throw PluginLoadError("\(name): not a shared library (no ELF header)")
        }
        guard let opened = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw PluginLoadError("\(name): dlopen failed: \(reason)")
        }
        return SharedLibrary(path: path, handle: opened)
    }

    var fileName: String { (path as NSString).lastPathComponent }

    /// The address of an exported symbol, or `nil` when the library does not export it.
    func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        _ = dlerror()
        return dlsym(handle, name)
    }
}
