import Foundation
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// A network namespace the test makes, joined to the host by a veth pair of its own
/// (10.213.N.1 on the host's end, 10.213.N.2 inside), so a process started in it reaches the host
/// only over that link — and the test can cut the link (packets are dropped, connections are not
/// closed: a partition, not a refusal) and mend it. Removed, link and all, when the test is done.
/// Needs root (CI runs as root); skipped otherwise.
final class NetworkNamespace {
    static let ip = "/usr/sbin/ip"

    let name: String
    let hostAddress: String
    let innerAddress: String
    private let hostLink: String

    init() throws {
        guard getuid() == 0 else { throw XCTSkip("network namespaces need root (CI runs as root)") }
        guard FileManager.default.isExecutableFile(atPath: Self.ip) else { throw XCTSkip("no \(Self.ip) (apt-get install iproute2)") }
        let number = Int.random(in: 1...250)
        let tag = String(UUID().uuidString.prefix(6)).lowercased()
        name = "trailhead-\(tag)"
        hostLink = "th-h-\(tag)"  // interface names: 15 characters at most
        hostAddress = "10.213.\(number).1"
        innerAddress = "10.213.\(number).2"
        let innerLink = "th-n-\(tag)"
        try Self.run(["netns", "add", name])
        do {
            try Self.run(["link", "add", hostLink, "type", "veth", "peer", "name", innerLink])
            try Self.run(["link", "set", innerLink, "netns", name])
            try Self.run(["addr", "add", hostAddress + "/24", "dev", hostLink])
            try Self.run(["link", "set", hostLink, "up"])
            try Self.run(["-n", name, "addr", "add", innerAddress + "/24", "dev", innerLink])
            try Self.run(["-n", name, "link", "set", innerLink, "up"])
            try Self.run(["-n", name, "link", "set", "lo", "up"])
        } catch {
            _ = try? Self.run(["netns", "delete", name])
            throw error
        }
    }

    deinit {
        // Deleting the namespace deletes the inner end, and with it the pair.
        _ = try? Self.run(["netns", "delete", name])
        _ = try? Self.run(["link", "delete", hostLink])
    }

    /// The link goes down: what either side sends is lost until `mend()`.
    func cut() throws { try Self.run(["link", "set", hostLink, "down"]) }

    func mend() throws { try Self.run(["link", "set", hostLink, "up"]) }

    /// `executable arguments…` run inside the namespace (`ip netns exec` execs it: same pid).
    func start(_ executable: String, _ arguments: [String], environment: [String: String?], log: String) throws -> ChildProcess {
        try ChildProcess(
            Self.ip, ["netns", "exec", name, executable] + arguments,
            options: .init(environment: ChildProcess.Options.environment(adding: environment), standardOutput: .file(log), standardError: .file(log)))
    }

    @discardableResult
    private static func run(_ arguments: [String]) throws -> String {
        let done = try ChildProcess.run(ip, arguments, timeLimit: 30)
        guard done.status == 0 else { throw ServeProcess.Failure(description: "ip \(arguments.joined(separator: " ")) failed: \(done.stderr)") }
        return done.stdout
    }
}
