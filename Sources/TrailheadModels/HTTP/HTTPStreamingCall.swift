import Foundation
import TrailheadSupport

/// One HTTP exchange with a model server on the one HTTP client (TrailheadSupport's, on libcurl),
/// its errors in this transport's terms. Terminating the returned stream (the consumer's task is
/// cancelled, or it stops iterating) stops the transfer.
enum HTTPStreamingCall {
    struct Timeouts: Sendable {
        /// The longest silence between two pieces of the response (and before the head).
        var idle: Double
        /// The longest whole exchange.
        var total: Double
    }

    /// Starts `request`; errors are `HTTPTransportError`.
    static func start(_ request: HTTPClient.Request, timeouts: Timeouts) -> AsyncThrowingStream<HTTPClient.Event, any Error> {
        var request = request
        request.idleSeconds = timeouts.idle
        request.totalSeconds = timeouts.total
        return HTTPClient.stream(request) { HTTPTransportError($0, timeouts: timeouts) }
    }

    /// Sends `request` and collects the whole response.
    static func fetch(_ request: HTTPClient.Request, timeouts: Timeouts) async throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        var status = 0
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        for try await event in start(request, timeouts: timeouts) {
            switch event {
            case .head(let s, let h): (status, headers) = (s, h)
            case .body(let piece): body += piece
            }
        }
        return (status, headers, body)
    }
}
