import Dispatch
import Foundation

/// Runs async work from a synchronous command and waits for it. Ctrl-C (SIGINT) cancels the
/// work instead of killing the process, so it can finish cleanly (close the transcript, stop
/// workers) and report the interruption; a second Ctrl-C exits at once.
func runAsync<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let task = Task {
        result.value = await body()
        done.signal()
    }
    let interrupts = InterruptCounter()
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler {
        if interrupts.increment() > 1 { _exit(130) }
        task.cancel()
    }
    source.resume()
    done.wait()
    source.cancel()
    signal(SIGINT, SIG_DFL)
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

private final class InterruptCounter: @unchecked Sendable {
    private var count = 0
    private let lock = NSLock()
    func increment() -> Int { lock.withLock { count += 1; return count } }
}
