"""A trivial `echo` tool served by the official MCP Python SDK (the peer of Trailhead's
agent-tool-host and `agent mcp serve` in `trailhead-bench tool-calls`).

    python mcp_echo_server.py                 # stdio
    python mcp_echo_server.py --http PORT     # Streamable HTTP on 127.0.0.1 (0 picks a free port);
                                              # prints its URL, http://127.0.0.1:PORT/mcp, on stderr
"""

import logging
import socket
import sys
from typing import Any

from mcp.server.mcpserver import MCPServer

server = MCPServer("python-echo")


@server.tool()
def echo(text: str) -> dict[str, Any]:
    """Returns its argument."""
    return {"text": text}


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        port = int(sys.argv[2])
        if port == 0:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
        # Per-request log lines would be part of what is measured.
        logging.disable(logging.INFO)
        print(f"python-echo: serving on http://127.0.0.1:{port}/mcp", file=sys.stderr, flush=True)
        server.run("streamable-http", host="127.0.0.1", port=port, json_response=True)
    else:
        server.run("stdio")
