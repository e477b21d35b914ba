import Synchronization
import Testing

@testable import TrailheadModels

@Suite struct SlotGateTests {
    @Test func noMoreThanTheSlotsRunAtOnceAndEveryWaiterGetsItsTurn() async {
        let gate = SlotGate(slots: 2)
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<7 {
                group.addTask {
                    await gate.acquire()
                    counter.state.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
                    try? await Task.sleep(nanoseconds: 5_000_000)
                    counter.state.withLock { $0.running -= 1; $0.done += 1 }
                    gate.release()
                }
            }
        }
        #expect(counter.state.withLock { $0.most } == 2)
        #expect(counter.state.withLock { $0.done } == 7)
    }
}

private final class Counter: Sendable {
    let state = Mutex((running: 0, most: 0, done: 0))
}
