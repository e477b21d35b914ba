import Testing
@testable import TrailheadTools

@Suite struct BoundedTailTests {
    @Test func keepsOnlyTheLastBytes() {
        var tail = BoundedTail(capacity: 8)
        tail.append(Array("0123456789".utf8))
        tail.append(Array("ab".utf8))
        #expect(tail.text(last: 100) == "456789ab")
        #expect(tail.droppedBytes == 4)
        #expect(tail.text(last: 3) == "9ab")
    }
}
