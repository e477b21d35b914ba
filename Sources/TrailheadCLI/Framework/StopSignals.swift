import Foundation
import TrailheadSupport

/// Runs `stop` when the process gets SIGINT (Ctrl-C) or SIGTERM (an operator, a service manager):
/// how a command that serves until told (a server, a worker) ends cleanly. Stop the returned
/// watches when the command is done.
func watchStopSignals(_ stop: @escaping @Sendable () -> Void) throws(CommandError) -> [SignalWatch] {
    do { return try [SIGINT, SIGTERM].map { try SignalWatch($0) { _ in stop() } } } catch { throw CommandError("\(error)") }
}
