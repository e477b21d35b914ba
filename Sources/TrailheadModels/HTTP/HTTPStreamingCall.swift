import Dispatch
import Foundation
import TrailheadSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange whose response body is delivered as it arrives.
///
/// `URLSession.bytes(for:)` does not exist on Linux, so the body comes through a
/// `URLSessionDataDelegate`. Timeouts are enforced here rather than by `URLRequest`, whose
/// idle-timeout behaviour differs between platforms: `idleTimeout` bounds the silence between
/// two chunks (and before the head), `totalTimeout` the whole exchange. Terminating the
/// returned stream (the consumer's task is cancelled, or it stops iterating) cancels the request.
final class HTTPStreamingCall: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Event: Sendable {
        /// The status line and headers (lower-cased names); always first.
        case head(status: Int, headers: [String: String])
        case body(Data)
    }

    struct Timeouts: Sendable {
        var idle: Double
        var total: Double
    }

    // All mutable state is guarded by `lock`: delegate callbacks arrive on the session's
    // queue, the timer on its own, and termination on whatever thread cancelled.
    private let lock = NSLock()
    private let continuation: AsyncThrowingStream<Event, any Error>.Continuation
    private let timeouts: Timeouts
    private var task: URLSessionDataTask?
    private var session: URLSession?
    private var timer: DispatchSourceTimer?
    private var lastActivity = monotonicSeconds()
    private let started = monotonicSeconds()
    private var finished = false

    private init(continuation: AsyncThrowingStream<Event, any Error>.Continuation, timeouts: Timeouts) {
        self.continuation = continuation
        self.timeouts = timeouts
    }

    /// Starts `request`; errors are `HTTPTransportError`.
    static func start(_ request: URLRequest, timeouts: Timeouts) -> AsyncThrowingStream<Event, any Error> {
        // Plain HTTP (the local server) avoids URLSession, which spins while it waits.
        if request.url?.scheme?.lowercased() == "http" { return SocketHTTPCall.start(request, timeouts: timeouts) }
        let (stream, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
        let call = HTTPStreamingCall(continuation: continuation, timeouts: timeouts)
        continuation.onTermination = { termination in
            if case .cancelled = termination { call.finish(throwing: HTTPTransportError.cancelled) }
        }
        call.begin(request)
        return stream
    }

    /// Sends `request` and collects the whole response.
    static func fetch(_ request: URLRequest, timeouts: Timeouts) async throws -> (status: Int, headers: [String: String], body: Data) {
        var status = 0
        var headers: [String: String] = [:]
        var body = Data()
        for try await event in start(request, timeouts: timeouts) {
            switch event {
            case .head(let s, let h): (status, headers) = (s, h)
            case .body(let chunk): body.append(chunk)
            }
        }
        return (status, headers, body)
    }

    private func begin(_ request: URLRequest) {
        var request = request
        // Our own timers decide; keep URLSession's out of the way.
        request.timeoutInterval = max(timeouts.total, timeouts.idle) + 5
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.timeoutInterval
        configuration.timeoutIntervalForResource = request.timeoutInterval
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        let task = session.dataTask(with: request)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let tick = max(0.01, min(timeouts.idle, timeouts.total) / 10)
        timer.schedule(deadline: .now() + tick, repeating: tick)
        timer.setEventHandler { [weak self] in self?.checkTimeouts() }
        lock.withLock {
            self.session = session
            self.task = task
            self.timer = timer
        }
        timer.resume()
        task.resume()
    }

    private func checkTimeouts() {
        let now = monotonicSeconds()
        let (idle, total): (Double, Double) = lock.withLock { (now - lastActivity, now - started) }
        if total > timeouts.total {
            finish(throwing: HTTPTransportError.totalTimeout(seconds: timeouts.total))
        } else if idle > timeouts.idle {
            finish(throwing: HTTPTransportError.idleTimeout(seconds: timeouts.idle))
        }
    }

    /// Ends the exchange once: cancels the request, stops the timer, releases the session.
    private func finish(throwing error: (any Error)?) {
        let (task, session, timer): (URLSessionDataTask?, URLSession?, DispatchSourceTimer?) = lock.withLock {
            guard !finished else { return (nil, nil, nil) }
            finished = true
            defer { (self.task, self.session, self.timer) = (nil, nil, nil) }
            return (self.task, self.session, self.timer)
        }
        guard let session else { return }
        timer?.cancel()
        if error != nil { task?.cancel() }
        session.finishTasksAndInvalidate()
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    }

    private func touch() -> Bool {
        lock.withLock {
            lastActivity = monotonicSeconds()
            return !finished
        }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if touch(), let http = response as? HTTPURLResponse {
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                headers[String(describing: name).lowercased()] = String(describing: value)
            }
            continuation.yield(.head(status: http.statusCode, headers: headers))
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if touch() { continuation.yield(.body(data)) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finish(throwing: error.map { HTTPTransportError($0) })
    }
}
