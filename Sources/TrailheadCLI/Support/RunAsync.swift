import Dispatch
import Foundation
import Synchronization
import TrailheadSupport

/// Runs async work from a synchronous command and waits for it. Ctrl-C (SIGINT) cancels the
/// work instead of killing the process, so it can finish cleanly (stop the workers its calls
/// wait on, close the transcript) and report the interruption; a second Ctrl-C exits at once.
/// Plugin workers run in process groups of their own, out of the terminal's reach: work that
/// knows how stops them itself, after it has recorded its cancellation (`TripPlanRun`); for any
/// other, they are stopped two seconds after the interrupt if the work has not ended by then.
func runAsync<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let task = Task {
        result.value = await body()
        done.signal()
    }
    let finished = Mutex(false)
    let watch = try? SignalWatch(SIGINT) { count in
        if count > 1 { _exit(130) }
        task.cancel()
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) {
            if !finished.withLock({ $0 }) { ChildProcess.interruptAll() }
        }
    }
    done.wait()
    finished.withLock { $0 = true }
    watch?.stop()
    return result.value!
}

/// The same for work that throws: its error is rethrown here.
func runAsync<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result: Result<T, any Error> = runAsync {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
    return try result.get()
}

/// Written once by the task before the semaphore is signalled, read after the wait.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
