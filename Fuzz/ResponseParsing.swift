// libFuzzer target (built by Scripts/fuzz.sh, not by SwiftPM): the parsing that is still ours at the
// HTTP edge, now that libmicrohttpd and libcurl parse HTTP itself.
//  - a request body, as the server's handlers decode it (`GeneratedContent(json:)`);
//  - a response stream, as the model and MCP clients read it: server-sent events fed in two pieces
//    cut anywhere, each event's data decoded as JSON.
// Besides crashes, one property: cutting the stream anywhere gives the same events as one piece.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseParsing(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    _ = try? GeneratedContent(json: bytes)

    var whole = ServerSentEventParser()
    let expected = whole.feed(bytes) + whole.finish()
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) * bytes.count / 256
    var pieces = ServerSentEventParser()
    let events = pieces.feed(bytes[..<cut]) + pieces.feed(bytes[cut...]) + pieces.finish()
    precondition(events == expected, "events differ when the stream is cut at \(cut)")
    for event in events { _ = try? GeneratedContent(json: event) }
    return 0
}
