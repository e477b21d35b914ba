"""Times N `tools/call` round trips from the official MCP Python SDK client to a stdio server,
or to a Streamable HTTP endpoint with --url.

    python mcp_echo_client.py --calls 2000 -- python mcp_echo_server.py
    python mcp_echo_client.py --calls 2000 -- .build/release/agent-tool-host Plugins/libFixtureTool.so
    python mcp_echo_client.py --calls 2000 -- .build/release/agent mcp serve --tools fixture
    python mcp_echo_client.py --calls 2000 --url http://127.0.0.1:8000/mcp

Prints one JSON object: calls, calls_per_s, p50_us, p99_us, and the first result (to show it worked).
"""

import argparse
import asyncio
import json
import time

from mcp import Client
from mcp.client.stdio import StdioServerParameters


def percentile(samples, q):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round((len(ordered) - 1) * q))]


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--tool", default="echo")
    parser.add_argument("--url")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = [part for part in options.command if part != "--"]
    server = options.url if options.url else StdioServerParameters(command=command[0], args=command[1:])
    async with Client(server) as client:
        first = None
        for _ in range(options.warmup):
            first = await client.call_tool(options.tool, {"text": "hello"})
        samples = []
        started = time.perf_counter()
        for _ in range(options.calls):
            before = time.perf_counter()
            await client.call_tool(options.tool, {"text": "hello"})
            samples.append(time.perf_counter() - before)
        elapsed = time.perf_counter() - started
    print(json.dumps({
        "calls": options.calls,
        "calls_per_s": options.calls / elapsed,
        "p50_us": percentile(samples, 0.5) * 1e6,
        "p99_us": percentile(samples, 0.99) * 1e6,
        "first_result": first.structured_content if first is not None else None,
    }))


if __name__ == "__main__":
    asyncio.run(main())
