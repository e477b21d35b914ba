import Foundation

/// What `make` downloads and builds outside the checkout: `$TRAILHEAD_CACHE`, else
/// `~/.cache/trailhead`. Missing pieces fail a test with a message saying how to get them; they
/// never skip it.
public enum TrailheadCache {
    public static var folder: String { variable("TRAILHEAD_CACHE") ?? NSHomeDirectory() + "/.cache/trailhead" }

    /// The unpacked sdists the tests read (JSON-Schema-Test-Suite, calendars, vCards):
    /// `$TRAILHEAD_TEST_DATA`, else `~/.cache/trailhead/testdata`.
    public static var testData: String { variable("TRAILHEAD_TEST_DATA") ?? NSHomeDirectory() + "/.cache/trailhead/testdata" }

    /// The folder `relative` of the test data.
    public static func testData(_ relative: String) throws -> String {
        let path = testData + "/" + relative
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TestSetupError("test data missing: \(path). Run `make test-data` (Scripts/fetch-test-data.sh) or set TRAILHEAD_TEST_DATA.")
        }
        return path
    }

    /// The virtual environment's Python (Scripts/setup-python.sh installs the reference libraries,
    /// the MCP SDK and the openai client into it).
    public static func python() throws -> String {
        let python = folder + "/venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestSetupError("no Python venv at \(python): run `make setup` (Scripts/setup-python.sh)")
        }
        return python
    }

    /// `name` in the venv of Arize Phoenix, the OTLP receiver the telemetry tests export to
    /// (Scripts/setup-python.sh makes it apart from the main venv).
    public static func phoenix(_ name: String) throws -> String {
        let path = folder + "/phoenix-venv/bin/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSetupError("no \(path): run `make setup` (Scripts/setup-python.sh installs arize-phoenix)")
        }
        return path
    }

    private static func variable(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}
