import Foundation
import TrailheadSupport

/// Polls `condition` until it holds: a bounded wait for something another process does, not a
/// measurement (it fails only when the thing never happens). A condition that throws has not held
/// yet; the last error is in the failure.
public func waitUntil(_ what: String, timeout: Double = 30, _ condition: () throws -> Bool) throws {
    var polling = Polling(what, timeout: timeout)
    while try !polling.holds(condition) { usleep(50_000) }
}

/// `waitUntil` for async tests: sleeps without holding a thread.
public func waitUntil(_ what: String, timeout: Double = 30, _ condition: () throws -> Bool) async throws {
    var polling = Polling(what, timeout: timeout)
    while try !polling.holds(condition) { try await Task.sleep(nanoseconds: 50_000_000) }
}

/// One bounded wait: whether the condition holds now, and the failure once the time is up.
private struct Polling {
    let what: String
    let timeout: Double
    let deadline: Double
    var lastError: (any Error)?

    init(_ what: String, timeout: Double) {
        self.what = what
        self.timeout = timeout
        deadline = monotonicSeconds() + timeout
    }

    mutating func holds(_ condition: () throws -> Bool) throws -> Bool {
        do {
            if try condition() { return true }
        } catch {
            lastError = error
        }
        guard monotonicSeconds() < deadline else {
            throw TestSetupError("waited \(Int(timeout)) s, in vain, until \(what)" + (lastError.map { " (last: \($0))" } ?? ""))
        }
        return false
    }
}
