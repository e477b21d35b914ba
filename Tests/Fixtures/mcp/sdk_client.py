"""Drives an MCP server with the official MCP Python SDK's client and prints what it saw, as one
JSON object on the last line (for Trailhead's interop tests).

    python sdk_client.py [--http URL] ACTION… [-- COMMAND ARG…]

Actions, run in order after connecting (the client negotiates as it does by default):
    --list                  list the tools (names, schemas, annotations)
    --call NAME JSON        call a tool; the result (structured content, text, isError) is recorded
    --abandon NAME JSON     call a tool but give up after 2 s (the SDK then sends notifications/cancelled)
    --write PATH TEXT       write a file (a new manifest), then wait up to 30 s for
                            notifications/tools/list_changed and list the tools again
    --ping                  send a ping
"""

import argparse
import asyncio
import json
import sys
import warnings

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import ToolListChangedNotification


# ping is deprecated in the SDK's newest (2026) revision; these servers speak 2025-11-25.
warnings.simplefilter("ignore")


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def main() -> None:
    argv = sys.argv[1:]
    command = []
    if "--" in argv:
        split = argv.index("--")
        argv, command = argv[:split], argv[split + 1:]
    parser = argparse.ArgumentParser()
    parser.add_argument("--http")
    parser.add_argument("--list", dest="actions", action="append_const", const=("list",))
    parser.add_argument("--ping", dest="actions", action="append_const", const=("ping",))
    parser.add_argument("--call", dest="actions", action="append", nargs=2, type=str, metavar=("NAME", "JSON"))
    parser.add_argument("--abandon", dest="abandons", action="append", nargs=2, metavar=("NAME", "JSON"))
    parser.add_argument("--write", dest="writes", action="append", nargs=2, metavar=("PATH", "TEXT"))
    # Keep the actions in command-line order, whatever their kind.
    ordered = []
    index = 0
    while index < len(argv):
        word = argv[index]
        if word in ("--list", "--ping"):
            ordered.append((word[2:],))
            index += 1
        elif word in ("--call", "--abandon", "--write"):
            ordered.append((word[2:], argv[index + 1], argv[index + 2]))
            index += 3
        elif word == "--http":
            index += 2
        else:
            parser.error(f"unknown argument {word}")
    options, _ = parser.parse_known_args(argv)
    server = options.http if options.http else StdioServerParameters(command=command[0], args=command[1:])

    changed = anyio.Event()
    notifications = []

    async def on_message(message) -> None:
        if isinstance(message, Exception):
            notifications.append(f"exception: {message}")
            return
        notifications.append(message.method if hasattr(message, "method") else type(message).__name__)
        if isinstance(message, ToolListChangedNotification):
            changed.set()

    report = {"steps": []}
    async with Client(server, message_handler=on_message, read_timeout_seconds=60) as client:
        report["protocol_version"] = client.session.protocol_version
        for action in ordered:
            if action[0] == "list":
                tools = await client.list_tools()
                report["steps"].append({"list": [dump(tool) for tool in tools.tools]})
            elif action[0] == "ping":
                await client.send_ping()
                report["steps"].append({"ping": "ok"})
            elif action[0] == "call":
                result = await client.call_tool(action[1], json.loads(action[2]))
                report["steps"].append({"call": action[1], "result": dump(result)})
            elif action[0] == "abandon":
                outcome = "answered"
                try:
                    await client.call_tool(action[1], json.loads(action[2]), read_timeout_seconds=2)
                except Exception as error:  # the SDK's timeout error
                    outcome = f"gave up: {type(error).__name__}"
                report["steps"].append({"abandon": action[1], "outcome": outcome})
            elif action[0] == "write":
                changed = anyio.Event()
                with open(action[1], "w") as handle:
                    handle.write(action[2])
                with anyio.move_on_after(30):
                    await changed.wait()
                tools = await client.list_tools()
                report["steps"].append({"changed": changed.is_set(), "list": [tool.name for tool in tools.tools]})
    report["notifications"] = notifications
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
