"""A small MCP server built with the official Python SDK (MCPServer, the former FastMCP): the
fixture Trailhead uses as an MCP tool source in tests.

    python trail_server.py                      # stdio
    python trail_server.py --http PORT          # Streamable HTTP on 127.0.0.1:PORT/mcp

TRAIL_SERVER_VARIANT=2 changes one tool's schema (a server whose tools changed since it was
registered must be refused).
"""

import os
import sys
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field, WithJsonSchema

server = MCPServer("trail-conditions")
VARIANT = os.environ.get("TRAIL_SERVER_VARIANT", "1")


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def echo(text: str) -> dict[str, Any]:
    """Returns its argument."""
    return {"text": text}


if VARIANT == "2":
    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def trailConditions(park: str, date: str, units: str = "metric") -> dict[str, Any]:
        """Trail conditions in a park on a date: surface, crowding and one line of advice."""
        return {"park": park, "date": date, "surface": "dry", "crowds": "light", "advice": "Start early."}
else:
    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def trailConditions(
        park: Annotated[str, Field(description="The park or landmark")],
        date: Annotated[str, Field(description="The day, YYYY-MM-DD", pattern=r"^\d{4}-\d{2}-\d{2}$")],
    ) -> dict[str, Any]:
        """Trail conditions in a park on a date: surface, crowding and one line of advice."""
        day = int(date[-2:])
        surface = ["dry", "dusty", "muddy"][day % 3]
        return {"park": park, "date": date, "surface": surface, "crowds": "light" if day % 2 else "busy",
                "advice": "Carry two litres of water per person."}


@server.tool()
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


@server.tool()
def shout(text: str) -> str:
    """Upper-cases its text (an unstructured, text-only result)."""
    return text.upper()


@server.tool()
def refuse(reason: str) -> str:
    """Always fails with the reason given (a tool error, isError: true)."""
    raise ToolError(f"refused: {reason}")


@server.tool()
def tagged(tags: Annotated[dict[str, Any], WithJsonSchema({"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}})]) -> dict[str, Any]:
    """Takes tags whose schema uses propertyNames, a keyword outside Trailhead's subset."""
    return {"tags": tags}


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")
