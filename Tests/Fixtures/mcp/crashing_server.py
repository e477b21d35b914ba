"""An MCP server (official Python SDK) whose `explode` tool kills its own process: Trailhead must
report the crash as a tool error, restart the server on the next call, and quarantine it after
repeated crashes. `pid` tells which process answered."""

import os
import signal
import sys
from typing import Any

from mcp.server.mcpserver import MCPServer

server = MCPServer("crashing")


@server.tool()
def pid() -> dict[str, Any]:
    """The server's process id."""
    return {"pid": os.getpid()}


@server.tool()
def explode(how: str = "exit") -> dict[str, Any]:
    """Kills the server: "exit" (status 3) or "segfault" (SIGSEGV)."""
    sys.stderr.write("crashing_server: exploding on purpose\n")
    sys.stderr.flush()
    if how == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    os._exit(3)


if __name__ == "__main__":
    server.run("stdio")
