import Foundation
import TrailheadSupport

/// The web app's plain files (HTML, CSS, JavaScript in `Sources/TrailheadServer/Web`, copied
/// beside the built executable as the target's resources) and the package's own data folder.
enum WebAppFiles {
    /// The folder holding index.html: the resources beside the executable, else the checkout's.
    static let folder: String? = {
        var candidates: [String] = []
        if let executable = Bundle.main.executablePath {
            let beside = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent().path
            candidates.append(beside + "/Trailhead_TrailheadServer.resources/Web")
        }
        if let home = packageHome { candidates.append(home + "/Sources/TrailheadServer/Web") }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/index.html") }
    }()

    /// The checkout: `$TRAILHEAD_HOME`, else the folder above the executable that holds
    /// `Data/landmarks`, else where this file was compiled.
    static let packageHome: String? = {
        let environment = ProcessInfo.processInfo.environment["TRAILHEAD_HOME"] ?? ""
        var candidates = environment.isEmpty ? [] : [environment]
        if let executable = Bundle.main.executablePath {
            var folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                folder = folder.deletingLastPathComponent()
                candidates.append(folder.path)
            }
        }
        // …/Sources/TrailheadServer/WebApp/WebAppFiles.swift
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path)
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/Data/landmarks") }
    }()

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml", "json": "application/json", "ico": "image/x-icon",
    ]

    /// The file `name` (one plain name, no folders), or nil when there is none.
    static func response(_ name: String) -> HTTPServer.Response? {
        guard let folder, !name.isEmpty, !name.hasPrefix("."), !name.contains("/"), !name.contains("\\"),
            let type = contentTypes[(name as NSString).pathExtension.lowercased()],
            let data = FileManager.default.contents(atPath: folder + "/" + name)
        else { return nil }
        return HTTPServer.Response(
            status: 200, headers: ["Content-Type": type, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"], body: Array(data))
    }
}
