import Foundation
import XCTest

/// Where the tests write their temporary files: one folder per test process, removed when the
/// process exits (a run of the suite used to leave some 170 folders in the temporary directory).
public enum Scratch {
    public static let folder: String = {
        atexit { try? FileManager.default.removeItem(atPath: Scratch.folder) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-tests-\(getpid())").path
    }()

    /// A new empty folder inside the scratch folder; `name` starts its name.
    public static func newFolder(_ name: String = "test") throws -> String {
        let path = folder + "/" + name + "-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A new empty folder removed as soon as `test` ends (for tests that write large files).
    public static func newFolder(_ name: String = "test", removedAfter test: XCTestCase) throws -> String {
        let path = try newFolder(name)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Writes `text` to `name` in a new folder and returns the file's path.
    public static func file(_ text: String, name: String = "file.json") throws -> String {
        let path = try newFolder() + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
