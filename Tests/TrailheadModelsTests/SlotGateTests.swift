import Synchronization
import Testing

@testable import TrailheadModels

@Suite struct SlotGateTests {
    @Test func noMoreThanTheSlotsRunAtOnceAndEveryWaiterGetsItsTurn() async {
        let gate = SlotGate(slots: 2)
        let counts = Mutex((running: 0, most: 0, done: 0))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<7 {
                group.addTask {
                    await gate.acquire()
                    counts.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
                    try? await Task.sleep(nanoseconds: 5_000_000)
                    counts.withLock { $0.running -= 1; $0.done += 1 }
                    gate.release()
                }
            }
        }
        #expect(counts.withLock { $0.most } == 2)
        #expect(counts.withLock { $0.done } == 7)
    }
}
