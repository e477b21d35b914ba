import TrailheadSupport
import XCTest

@testable import TrailheadModels

final class ServerSentEventParserTests: XCTestCase {
    func testEventsSplitAnywhereAcrossChunks() {
        let text = "data: {\"a\":1}\r\n\r\n: comment\n\ndata: line1\ndata: line2\n\nevent: x\ndata: é\r\rdata: [DONE]\n\n"
        let bytes = Array(text.utf8)
        for size in [1, 2, 3, 7, bytes.count] {
            var parser = ServerSentEventParser()
            var events: [String] = []
            var i = 0
            while i < bytes.count {
                events += parser.feed(bytes[i..<min(i + size, bytes.count)])
                i += size
            }
            events += parser.finish()
            XCTAssertEqual(events, ["{\"a\":1}", "line1\nline2", "é", "[DONE]"], "chunk size \(size)")
        }
    }

    func testUnterminatedLastEventIsDelivered() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.feed(Array("data: tail".utf8)), [])
        XCTAssertEqual(parser.finish(), ["tail"])
    }
}
