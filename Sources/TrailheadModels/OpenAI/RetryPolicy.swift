/// Bounded exponential backoff for requests that failed before any output: connection
/// refused, HTTP 429 and 5xx. A server's `Retry-After` is waited for when it is within
/// `maximumDelay`; a longer one ends the retrying at once (holding a request for minutes helps no
/// one), and the error says when the server expects to serve again
/// (`LanguageModelError.rateLimited`'s `resetDate`) for the caller — a fleet, a hybrid — to decide.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt (0 disables retrying).
    public var maximumRetries: Int
    public var initialDelay: Double
    public var maximumDelay: Double

    public init(maximumRetries: Int = 3, initialDelay: Double = 0.25, maximumDelay: Double = 4) {
        self.maximumRetries = maximumRetries
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    public static let none = RetryPolicy(maximumRetries: 0)

    /// The wait before retry number `retry` (0-based).
    func delay(forRetry retry: Int, retryAfter: Double?) -> Double {
        if let retryAfter { return min(max(retryAfter, 0), maximumDelay) }
        return min(initialDelay * Double(1 << min(retry, 20)), maximumDelay)
    }

    /// Whether retry number `retry` (0-based) is worth making after a failure whose server asked
    /// for `retryAfter` seconds.
    func allowsRetry(_ retry: Int, retryAfter: Double?) -> Bool {
        retry < maximumRetries && (retryAfter ?? 0) <= maximumDelay
    }

    /// Whether an HTTP status is worth another attempt.
    static func isRetryable(status: Int) -> Bool { status == 429 || (500...599).contains(status) }
}
