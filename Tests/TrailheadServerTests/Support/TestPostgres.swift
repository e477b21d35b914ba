import Foundation
import TrailheadSupport
import TrailheadTestSupport

/// A throwaway PostgreSQL cluster for one test: `initdb` in a temporary folder, `pg_ctl` on a free
/// port of 127.0.0.1 (and a socket in that folder), trust authentication for the `postgres` role.
/// `initdb` refuses to run as root, and CI runs as root: then the cluster is the `postgres`
/// user's (the one Debian's package creates), run through `runuser`, its folder given to it.
final class TestPostgres {
    static let binaries = "/usr/lib/postgresql/15/bin"

    let folder: String
    let port: Int
    var url: String { "postgresql://postgres@127.0.0.1:\(port)/postgres" }
    private var data: String { folder + "/data" }
    private let asRoot = getuid() == 0
    /// Addresses it listens on besides 127.0.0.1 (a network namespace's link); clients in their /24 are trusted.
    private let otherAddresses: [String]

    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    init(alsoListeningOn otherAddresses: [String] = []) throws {
        self.otherAddresses = otherAddresses
        guard FileManager.default.isExecutableFile(atPath: Self.binaries + "/initdb") else {
            throw SetupError(description: "no \(Self.binaries)/initdb: run `make setup` (Scripts/setup-system.sh installs postgresql-15)")
        }
        // In /tmp itself: the postgres user must reach it (a TMPDIR under /root would not let it), and
        // the socket path must stay short.
        folder = "/tmp/trailhead-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = try freeLoopbackPort()
        if asRoot {
            guard let user = getpwnam("postgres") else {
                throw SetupError(description: "running as root, and there is no postgres user to run initdb as (install postgresql-15)")
            }
            // The folder is the postgres user's; its parent (the temporary folder) must let it in.
            guard chown(folder, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw SetupError(description: "cannot give \(folder) to postgres: \(String(cString: strerror(errno)))")
            }
        }
        try run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"])
        if !otherAddresses.isEmpty {
            let rules = otherAddresses.map { "host all all \($0)/24 trust\n" }.joined()
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/pg_hba.conf"))
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(rules.utf8))
        }
        try start()
    }

    deinit {
        _ = try? run("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    func start() throws {
        try run("pg_ctl", ["start", "-D", data, "-w", "-t", "60", "-l", folder + "/log", "-o",
                           "-p \(port) -k \(folder) -c listen_addresses=\((["127.0.0.1"] + otherAddresses).joined(separator: ",")) -c fsync=off"])
    }

    func stop() throws { try run("pg_ctl", ["stop", "-D", data, "-m", "fast", "-w"]) }

    /// Runs `psql -c sql` and returns its unaligned output.
    func query(_ sql: String) throws -> String {
        try run("psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", "postgres", "-At", "-c", sql])
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let executable = asRoot ? "/usr/sbin/runuser" : Self.binaries + "/" + tool
        let all = asRoot ? ["-u", "postgres", "--", Self.binaries + "/" + tool] + arguments : arguments
        let done = try ChildProcess.run(executable, all, options: .init(directory: folder), timeLimit: 120)
        guard done.status == 0 else {
            let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)).map { String($0.suffix(1500)) } ?? ""
            throw SetupError(description: "\(tool) \(arguments.joined(separator: " ")) failed (\(done.status)): \(done.stderr)\(done.stdout)\n\(log)")
        }
        return done.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
