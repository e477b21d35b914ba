"""A trivial `echo` tool served over stdio by the official MCP Python SDK (the peer of
Trailhead's agent-tool-host in `trailhead-bench tool-calls`)."""

from typing import Any

from mcp.server.mcpserver import MCPServer

server = MCPServer("python-echo")


@server.tool()
def echo(text: str) -> dict[str, Any]:
    """Returns its argument."""
    return {"text": text}


if __name__ == "__main__":
    server.run("stdio")
