/// Parses JSON text as it arrives and shows what is known so far, for streaming model output.
///
/// Feed chunks of any size with `append` (a chunk may end inside a UTF-8 sequence, an escape
/// such as `\u00e9`, a number or a key); ask for `snapshot()` whenever you want to show
/// progress; call `finish()` at the end for the complete document, or the same error the strict
/// parser (`GeneratedContent(json:)`) gives for that text.
///
/// What a snapshot shows:
/// - finished values exactly as the final document will have them;
/// - a string cut mid-way, as the prefix read so far (an escape or UTF-8 sequence cut mid-way
///   is left out until it is complete);
/// - an array with its finished elements and, when the last element has begun and is a string,
///   an array or an object, that partial element too;
/// - an object with its finished members and the member being read when its value is a
///   partial string, array or object; a member whose key is cut, or whose value has not begun,
///   is absent;
/// - a number only once complete, that is once a byte after it shows it has ended (or at
///   `finish()`); `true`, `false` and `null` once their last letter is read.
///
/// Cost: every byte is looked at once, by a state machine that keeps an explicit stack of open
/// containers between chunks, so parsing is linear in the text. Finished values are stored once
/// in their parent and never rebuilt. A snapshot reuses the open containers' storage
/// (copy-on-write): it costs O(depth) when the caller has let go of the previous snapshot before
/// the next `append`; holding a snapshot across an `append` costs one copy of the open containers.
public struct PartialJSONParser: Sendable {
    /// The deepest nesting accepted; deeper input is an error (as in the strict parser).
    public let maximumDepth: Int

    var mode: Mode = .value
    /// Open containers, outermost first.
    var frames: [Frame] = []
    /// The document once its top-level value is complete.
    var root: GeneratedContent?

    // Position, for errors and for the caller.
    /// Bytes consumed so far.
    public internal(set) var byteCount = 0
    var line = 1
    var lineStart = 0

    // The token being read.
    var string = StringState()
    var number = NumberState()
    var literal = LiteralState()

    /// Whether the last snapshot left provisional values in the open containers.
    var provisionalInstalled = false
    var failure: JSONSyntaxError?
    var ended = false

    public init(maximumDepth: Int = GeneratedContent.maximumDepth) {
        self.maximumDepth = maximumDepth
    }

    /// Feeds the next piece of the text.
    public mutating func append(_ text: String) throws(JSONSyntaxError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result<Void, JSONSyntaxError> { () throws(JSONSyntaxError) in try append(contiguous: buffer) }
        }
        try result.get()
    }

    /// Feeds the next bytes of UTF-8 text; a chunk may end anywhere, even inside a character.
    public mutating func append(bytes: some Collection<UInt8>) throws(JSONSyntaxError) {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result<Void, JSONSyntaxError> { () throws(JSONSyntaxError) in try append(contiguous: buffer) }
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        try copy.withUnsafeBufferPointer { buffer in
            Result<Void, JSONSyntaxError> { () throws(JSONSyntaxError) in try append(contiguous: buffer) }
        }.get()
    }

    private mutating func append(contiguous bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) {
        if let failure { throw failure }
        if ended { throw fail("unexpected content after the end of input was declared") }
        if provisionalInstalled { removeProvisionalValues() }
        do {
            var index = 0
            while index < bytes.count {
                if mode == .string { index = consumePlainRun(bytes, from: index) }
                if index < bytes.count {
                    try consume(bytes[index])
                    index += 1
                }
            }
            string.flush()
        } catch {
            failure = error
            throw error
        }
    }

    /// Whether the top-level value is complete (only whitespace may follow).
    public var isComplete: Bool { root != nil }

    /// What is known so far (see the type's documentation); `nil` until something can be shown.
    /// Mutating because it lends the open containers' storage to the snapshot.
    public mutating func snapshot() -> GeneratedContent? {
        if let root { return root }
        return installProvisionalValues()
    }

    /// Declares the end of the text: the complete document, or the error for what is missing.
    public mutating func finish() throws(JSONSyntaxError) -> GeneratedContent {
        if let failure { throw failure }
        if provisionalInstalled { removeProvisionalValues() }
        ended = true
        do {
            try consumeEndOfInput()
        } catch {
            failure = error
            throw error
        }
        return root!
    }

    /// Parses a whole text in one go (for comparisons and tests).
    public static func parse(_ text: String) throws(JSONSyntaxError) -> GeneratedContent {
        var parser = PartialJSONParser()
        try parser.append(text)
        return try parser.finish()
    }
}
