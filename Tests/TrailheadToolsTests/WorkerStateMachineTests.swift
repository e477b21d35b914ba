import Testing
@testable import TrailheadTools

@Suite struct WorkerStateMachineTests {
    @Test func firstCallSpawnsThenLaterCallsReuseTheWorker() {
        var machine = WorkerStateMachine()
        #expect(machine.callRequested() == .spawnThenSend)
        #expect(machine.replied() == .keep)
        #expect(machine.hasWorker)
        #expect(machine.callRequested() == .send)
        #expect(machine.replied() == .keep)
    }

    @Test func aCrashDiscardsTheWorkerAndTheNextCallRespawns() {
        var machine = WorkerStateMachine()
        _ = machine.callRequested()
        #expect(machine.died() == .discard(kill: true, quarantine: false))
        #expect(machine.consecutiveCrashes == 1)
        #expect(machine.callRequested() == .spawnThenSend)
    }

    @Test func aGoodReplyResetsTheCrashCount() {
        var machine = WorkerStateMachine(crashLimit: 3)
        for _ in 0..<2 {
            _ = machine.callRequested()
            _ = machine.died()
        }
        _ = machine.callRequested()
        _ = machine.replied()
        #expect(machine.consecutiveCrashes == 0)
        for _ in 0..<2 {
            _ = machine.callRequested()
            _ = machine.sentGarbage()
        }
        #expect(!machine.isQuarantined)
    }

    @Test func theThirdCrashInARowQuarantinesUntilTheLibraryChanges() {
        var machine = WorkerStateMachine(crashLimit: 3)
        _ = machine.callRequested()
        #expect(machine.died() == .discard(kill: true, quarantine: false))
        _ = machine.callRequested()
        #expect(machine.sentGarbage() == .discard(kill: true, quarantine: false))
        _ = machine.callRequested()
        #expect(machine.died() == .discard(kill: true, quarantine: true))
        #expect(machine.isQuarantined)
        #expect(machine.callRequested() == .refuseQuarantined(crashes: 3))
        machine.libraryChanged()
        #expect(machine.consecutiveCrashes == 0)
        #expect(machine.callRequested() == .spawnThenSend)
    }

    @Test func aCancelledCallStopsTheWorkerWithoutCountingAsACrash() {
        var machine = WorkerStateMachine(crashLimit: 1)
        _ = machine.callRequested()
        #expect(machine.cancelled() == .discard(kill: true, quarantine: false))
        #expect(machine.consecutiveCrashes == 0)
        #expect(!machine.isQuarantined)
        #expect(machine.callRequested() == .spawnThenSend)
    }

    @Test func timeoutsKillButDoNotCountTowardsQuarantine() {
        var machine = WorkerStateMachine(crashLimit: 1)
        _ = machine.callRequested()
        #expect(machine.timedOut() == .discard(kill: true, quarantine: false))
        #expect(machine.consecutiveCrashes == 0)
        #expect(machine.callRequested() == .spawnThenSend)
    }

    @Test func aFailedStartIsNotACrash() {
        var machine = WorkerStateMachine(crashLimit: 1)
        _ = machine.callRequested()
        #expect(machine.spawnFailed() == .discard(kill: true, quarantine: false))
        #expect(!machine.isQuarantined)
        #expect(machine.callRequested() == .spawnThenSend)
    }

    @Test func shutdownStopsOnlyARunningWorker() {
        var machine = WorkerStateMachine()
        #expect(machine.shutdownRequested() == .keep)
        _ = machine.callRequested()
        _ = machine.replied()
        #expect(machine.shutdownRequested() == .discard(kill: false, quarantine: false))
        #expect(machine.callRequested() == .spawnThenSend)
    }

    @Test func libraryChangeOutsideQuarantineChangesNothing() {
        var machine = WorkerStateMachine()
        _ = machine.callRequested()
        _ = machine.died()
        machine.libraryChanged()
        #expect(machine.consecutiveCrashes == 1)
    }
}
