"""An MCP server (official Python SDK) whose `wait` tool never returns and blocks the whole
server (a synchronous sleep on its event loop): Trailhead must time the call out, stop the
server and start a new one for the next call. `pid` tells which process answered."""

import os
import time
from typing import Any

from mcp.server.mcpserver import MCPServer

server = MCPServer("hanging")


@server.tool()
def pid() -> dict[str, Any]:
    """The server's process id."""
    return {"pid": os.getpid()}


@server.tool()
async def wait() -> dict[str, Any]:
    """Never returns (and answers nothing else meanwhile)."""
    time.sleep(3600)
    return {}


if __name__ == "__main__":
    server.run("stdio")
