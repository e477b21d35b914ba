import Foundation

/// Ends a worker whose host is gone. A worker reads requests from its host on stdin and ends at
/// end of file — unless its plugin is stuck in a call, and then nothing would end it once the
/// host died (killed with SIGKILL, or a second Ctrl-C): its own process group keeps it out of
/// the terminal's reach. A thread waits for stdin to hang up and, if the process that started
/// the worker is gone by then (this process was handed to another parent), exits.
///
/// A host that only closed stdin (a normal shutdown, or a script piping requests in) is still
/// there: the worker answers what it read and ends at end of file, as it always did.
enum HostWatch {
    /// Starts the watch. Call it after the worker confined itself (confining needs one thread).
    static func start() {
        let host = getppid()
        Thread {
            var hangUp = pollfd(fd: 0, events: 0, revents: 0)
            // events 0: only a hang-up or an error wakes this poll.
            while poll(&hangUp, 1, -1) < 0 && errno == EINTR {}
            while getppid() == host { usleep(200_000) }
            writeAll(2, "agent-tool-host: the host that started this worker is gone; exiting\n")
            _exit(3)
        }.start()
    }
}
