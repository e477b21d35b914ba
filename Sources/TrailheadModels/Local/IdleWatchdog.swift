import Foundation

/// Stops the managed server after a stretch without requests.
///
/// A tiny detached shell loop, started next to the server: every request touches the last-use
/// stamp file (and keeps touching it every second while in flight); the loop wakes up
/// periodically and, when the stamp is older than the idle limit, terminates the server and
/// removes the state file if it still names that server. The stamp has a one-second
/// resolution, so the effective limit is between `idle - 1` and `idle` seconds.
/// It ends by itself when the server is gone (stopped by `agent model stop`, crashed). A shell
/// loop survives the `agent` command that started it, needs no daemon, and costs nothing
/// while sleeping.
enum IdleWatchdog {
    static let script = """
        pid=$1; stamp=$2; idle=$3; state=$4; tick=$5; exe=$6
        # Loop while that pid is still our server (never signal a process that reused the pid).
        while [ "$(readlink /proc/$pid/exe 2>/dev/null)" = "$exe" ]; do
          sleep "$tick"
          last=$(stat -c %Y "$stamp" 2>/dev/null || echo 0)
          now=$(date +%s)
          if [ $((now - last)) -ge "$idle" ]; then
            if grep -q "{\\"pid\\":$pid," "$state" 2>/dev/null; then rm -f "$state"; fi
            kill "$pid" 2>/dev/null
            exit 0
          fi
        done
        """

    static func start(
        serverPID: Int32, serverExecutable: String, stampPath: String, idleSeconds: Int, statePath: String, logPath: String
    ) throws(ModelError) {
        let tick = max(1, min(30, idleSeconds / 4))
        let watchdog = try ProcessSpawner.spawn(
            "/bin/sh",
            [
                "-c", script, "trailhead-model-watchdog", "\(serverPID)", stampPath, "\(idleSeconds)", statePath, "\(tick)",
                serverExecutable,
            ],
            logPath: logPath, detached: true)
        // It outlives most agent runs, but when it ends first it must not linger as a zombie.
        ProcessSpawner.reapWhenItExits(watchdog)
    }

    /// Records a use now.
    static func touch(_ stampPath: String) {
        let now = Date()
        if FileManager.default.fileExists(atPath: stampPath) {
            try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: stampPath)
        } else {
            _ = FileManager.default.createFile(atPath: stampPath, contents: Data())
        }
    }
}
