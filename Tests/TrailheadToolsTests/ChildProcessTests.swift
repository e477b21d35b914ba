import Foundation
import Testing
import TrailheadSupport
import XCTest

/// The one process runner: whatever state its caller is in, a child starts clean — only the
/// descriptors handed over, an empty signal mask, every signal at its default — in the process
/// group asked for. Checked from the child's side, in /proc.
@Suite(.serialized) struct ChildProcessTests {
    /// The child's own view of itself: `cat /proc/self/status`, and `ls /proc/self/fd` (which
    /// lists the descriptor it reads the folder with too).
    private func status(_ options: ChildProcess.Options = .init()) throws -> (status: String, descriptors: [String]) {
        let status = try ChildProcess.run("/bin/cat", ["/proc/self/status"], options: options, timeLimit: 30).stdout
        let listed = try ChildProcess.run("/bin/ls", ["/proc/self/fd"], options: options, timeLimit: 30).stdout
        return (status, listed.split(separator: "\n").map(String.init))
    }

    private func field(_ name: String, in status: String) -> String {
        status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) } ?? ""
    }

    @Test func aChildHoldsOnlyTheDescriptorsHandedOver() throws {
        // Given descriptors this process holds without close-on-exec…
        let file = open(NSTemporaryDirectory() + "trailhead-inherit-\(UUID().uuidString)", O_RDWR | O_CREAT, 0o600)
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ([file] + ends).forEach { close($0) } }

        // …a child holds none of them: its standard streams only (and the folder `ls` reads)…
        let plain = try status().descriptors
        #expect(Set(plain).isSubset(of: ["0", "1", "2", "3"]), "\(plain)")
        // …and what is handed over, renumbered from 3, readable.
        let handed = try ChildProcess.descriptor(holding: Array("handed over".utf8), name: "test")
        defer { close(handed) }
        let read = try ChildProcess.run("/bin/sh", ["-c", "cat <&3; echo; exec ls /proc/self/fd"], options: .init(descriptors: [handed]), timeLimit: 30)
        let lines = read.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "handed over")
        #expect(Set(lines.dropFirst()).isSubset(of: ["0", "1", "2", "3", "4"]), "\(lines)")
    }

    @Test func aChildStartsWithNoSignalBlockedOrIgnored() throws {
        // Given a caller ignoring SIGUSR2 and SIGINT and blocking SIGUSR1 in this thread…
        let previousUSR2 = signal(SIGUSR2, SIG_IGN)
        let previousINT = signal(SIGINT, SIG_IGN)
        var block = sigset_t(), previousMask = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGUSR1)
        pthread_sigmask(SIG_BLOCK, &block, &previousMask)
        defer {
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            signal(SIGUSR2, previousUSR2)
            signal(SIGINT, previousINT)
        }
        // …its child blocks and ignores nothing. (Signals 32 and 33 are glibc's own: its
        // posix_spawn ignores them in the child and every glibc program sets them up again.)
        let child = try status().status
        #expect(field("SigBlk", in: child) == "0000000000000000", "\(child)")
        #expect(UInt64(field("SigIgn", in: child), radix: 16).map { $0 & 0x7fff_ffff } == 0, "\(child)")
    }

    @Test func aChildJoinsTheGroupAskedFor() throws {
        let ownGroup = getpgrp(), ownSession = getsid(0)
        for (grouping, check) in [
            (ChildProcess.Grouping.inherit, { (pid: Int32, group: Int32, session: Int32) in group == ownGroup && session == ownSession }),
            (.newGroup, { pid, group, session in group == pid && session == ownSession }),
            (.newSession, { pid, group, session in group == pid && session == pid }),
        ] {
            let completed = try ChildProcess.run("/bin/sh", ["-c", "cut -d' ' -f1,5,6 /proc/$$/stat"], options: .init(grouping: grouping), timeLimit: 30)
            let ids = completed.stdout.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(ids.count == 3 && check(ids[0], ids[1], ids[2]), "\(grouping): pid, group, session = \(ids)")
        }
    }

    @Test func runFeedsInputCollectsLargeOutputsAndEnforcesItsTimeLimit() throws {
        // A child writing 2 MB on each stream while its input is still coming does not block.
        let input = Array(String(repeating: "trail ", count: 200_000).utf8)
        let echoed = try ChildProcess.run(
            "/bin/sh", ["-c", "head -c 2000000 /dev/zero >&2; cat; head -c 2000000 /dev/zero"], input: input, timeLimit: 60)
        #expect(echoed.termination == .exited(status: 0))
        #expect(echoed.standardOutput.count == input.count + 2_000_000)
        #expect(echoed.standardError.count == 2_000_000)
        // A child that outlives its limit is killed and says so.
        let slept = try ChildProcess.run("/bin/sleep", ["600"], timeLimit: 0.2)
        #expect(slept.timedOut)
        #expect(slept.termination == .killed(signal: SIGKILL))
        // A program that does not exist is a clear error.
        #expect(throws: SpawnError.self) { try ChildProcess.run("/nonexistent/program", []) }
    }
}

/// `interruptAll` signals every interruptible child of this process, so it runs among the XCTest
/// cases, one at a time: in a Swift Testing suite it also stopped the workers of tests running
/// beside it (a worker "killed by signal 15 while starting" in WorkerIsolationTests).
final class ChildProcessInterruptTests: XCTestCase {
    func testInterruptAllStopsInterruptibleChildrenOnly() throws {
        let worker = try ChildProcess("/bin/sleep", ["600"], options: .init(grouping: .newGroup, interruptible: true))
        let bystander = try ChildProcess("/bin/sleep", ["600"])
        XCTAssertGreaterThanOrEqual(ChildProcess.interruptAll(SIGTERM), 1)
        XCTAssertEqual(worker.wait(), .killed(signal: SIGTERM))
        XCTAssertNil(ChildProcess.termination(of: bystander.pid), "a child not marked interruptible runs on")
        bystander.signal(SIGKILL)
        XCTAssertEqual(bystander.wait(), .killed(signal: SIGKILL))
    }
}
