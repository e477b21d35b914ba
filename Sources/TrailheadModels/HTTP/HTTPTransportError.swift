import Foundation
import TrailheadSupport

/// What went wrong below HTTP: the part of an error that decides whether to retry.
enum HTTPTransportError: Error, Sendable, Equatable {
    /// Nobody listens (connection refused, host unreachable): worth retrying a little.
    case refused(String)
    /// Nothing arrived for `seconds`.
    case idleTimeout(seconds: Double)
    /// The whole exchange took longer than `seconds`.
    case totalTimeout(seconds: Double)
    /// The connection broke or the response was malformed.
    case failed(String)
    case cancelled

    init(_ error: HTTPError, timeouts: HTTPStreamingCall.Timeouts) {
        switch error.kind {
        case .refused: self = .refused(error.message)
        case .idleTimeout: self = .idleTimeout(seconds: timeouts.idle)
        case .timedOut: self = .totalTimeout(seconds: timeouts.total)
        case .cancelled: self = .cancelled
        case .closed, .malformed, .failed: self = .failed(error.message)
        }
    }
}
