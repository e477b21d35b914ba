/// The tokens a conversation takes, estimated from its text where no tokenizer is at hand.
///
/// `tokens` is the UTF-8 byte count divided by 3.5, plus the chat template's overhead per
/// message. Its error bound, measured with llama-server's `/tokenize` on this repository's prose
/// (docs/DESIGN.md, README.md), a landmark JSON fixture (pretty and compact) and a JSON schema:
/// Qwen2.5 read 3.05–4.05 bytes per token and SmolLM2 2.89–3.78, so the estimate was within
/// −17 % … +16 % of the true count (most under for pretty JSON, most over for English prose).
/// Other scripts, or dense digits, can take several times more tokens. `upperBound` holds for
/// every byte-level vocabulary (a token covers at least one byte) and the templates measured:
/// a conversation under it fits whatever the tokenizer says, so a request far from the limit is
/// never counted exactly.
public struct TokenEstimate: Sendable, Equatable {
    /// Bytes of English or JSON per token, the middle of what was measured.
    public static let bytesPerToken = 3.5
    /// Template tokens around one message (`<|im_start|>role\n … <|im_end|>\n` is 5 in ChatML).
    static let tokensPerMessage = 8
    /// Template tokens once per conversation (the assistant's opening, a BOS, a default system
    /// line some templates add).
    static let tokensPerConversation = 64

    public let bytes: Int
    public let messages: Int

    public init(_ messages: [ChatMessage]) {
        bytes = messages.reduce(0) { $0 + $1.content.utf8.count + $1.role.rawValue.utf8.count }
        self.messages = messages.count
    }

    /// The estimate.
    public var tokens: Int {
        Int((Double(bytes) / Self.bytesPerToken).rounded(.up)) + overhead
    }

    /// No byte-level tokenizer gives more than this.
    public var upperBound: Int { bytes + overhead }

    private var overhead: Int { messages * Self.tokensPerMessage + Self.tokensPerConversation }
}
