"""The trip planner done by a peer: the OpenAI Agents SDK driving the same model on the same
llama-server binary (started here with --jinja, which the SDK's tool calls need), with Trailhead's
plugins as its tools over MCP (`agent mcp serve --tools …`). One JSON line per run on stdout, in
the shape `agent eval --recorded` judges: request, itinerary (or null), wallSeconds, toolOutputs,
turns, tokensOut, error.

    python agents_sdk_peer.py REQUESTS.jsonl --agent .build/release/agent --server PATH --model GGUF [--runs N]
"""

import argparse
import asyncio
import datetime
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

from agents import Agent, ModelSettings, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from agents.mcp import MCPServerStdio
from openai import AsyncOpenAI
from pydantic import BaseModel, Field


class Activity(BaseModel):
    time: str = Field(description="morning, afternoon or evening")
    place: str
    category: str
    note: str


class Day(BaseModel):
    date: str = Field(description="YYYY-MM-DD")
    activities: list[Activity]


class Itinerary(BaseModel):
    title: str
    destination: str
    description: str
    rationale: str
    days: list[Day]
    companions: list[str] = []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(server: str, model: str, threads: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    log = open(os.environ.get("PEER_SERVER_LOG", "/dev/null"), "ab")
    process = subprocess.Popen(
        [server, "-m", model, "--host", "127.0.0.1", "--port", str(port), "-t", str(threads), "-c", "8192", "-np", "1",
         "--jinja", "--no-webui", "--alias", "qwen"], stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if urllib.request.urlopen(url + "/health", timeout=2).status == 200:
                return process, url
        except Exception:
            time.sleep(0.2)
        if process.poll() is not None:
            raise SystemExit(f"llama-server exited with {process.returncode}")
    raise SystemExit("llama-server did not become ready")


def window(request: dict) -> tuple[str, str]:
    today = datetime.date.today()
    start = request.get("from") or str(today + datetime.timedelta(days=1))
    end = request.get("to") or str(today + datetime.timedelta(days=60))
    return start, end


def prompt(request: dict) -> str:
    start, end = window(request)
    days = request.get("days", 3)
    companions = request.get("companions") or []
    if isinstance(companions, str):
        companions = [c.strip() for c in companions.split(",") if c.strip()]
    text = f"Plan a {days}-day trip to {request['landmark']} on free days between {start} and {end}"
    if companions:
        text += " with " + ", ".join(companions)
    return text + ". Give each day 2 activities."


INSTRUCTIONS = (
    "You are a trip planner. Use the tools: the calendar for free days, the points-of-interest tool for places, "
    "and the contacts tool for the people named. Use only dates the calendar reports free and places the tools returned. "
    "Keep every text short. When you have what you need, answer with one JSON object only: "
    '{"title": str, "destination": str, "description": str, "rationale": str, '
    '"days": [{"date": "YYYY-MM-DD", "activities": [{"time": "morning|afternoon|evening", "place": str, "category": str, "note": str}]}], '
    '"companions": [str]}'
)


def parse_itinerary(text: str):
    """The first JSON object in the answer (a small model may wrap it in prose or a code block)."""
    start = text.find("{")
    while start != -1:
        depth = 0
        for index in range(start, len(text)):
            if text[index] == "{":
                depth += 1
            elif text[index] == "}":
                depth -= 1
                if depth == 0:
                    try:
                        value = json.loads(text[start:index + 1])
                        return Itinerary.model_validate(value).model_dump()
                    except Exception:
                        break
        start = text.find("{", start + 1)
    return None


async def plan(request: dict, agent_binary: str, url: str) -> dict:
    tools = request.get("tools", "poi,calendar,contacts")
    if isinstance(tools, list):
        tools = ",".join(tools)
    record = {"request": request, "itinerary": None, "toolOutputs": [], "turns": 0, "tokensOut": 0}
    server = MCPServerStdio(params={"command": agent_binary, "args": ["mcp", "serve", "--tools", tools]},
                            cache_tools_list=True, client_session_timeout_seconds=30)
    started = time.monotonic()
    try:
        async with server:
            model = OpenAIChatCompletionsModel(model="qwen", openai_client=AsyncOpenAI(base_url=url + "/v1", api_key="none"))
            # Structured output (`output_type`) makes llama.cpp sample under its own JSON-schema grammar,
            # which crawled at 0.3-0.4 tokens/s here: the answer is asked for as JSON text instead.
            agent = Agent(name="planner", instructions=INSTRUCTIONS, mcp_servers=[server], model=model,
                          model_settings=ModelSettings(temperature=0.2, max_tokens=1024))
            result = await Runner.run(agent, prompt(request), max_turns=6)
            record["itinerary"] = parse_itinerary(str(result.final_output or ""))
            if record["itinerary"] is None:
                record["error"] = "no itinerary in the answer: " + str(result.final_output)[:200]
            for item in result.new_items:
                if item.type == "tool_call_output_item":
                    call = getattr(item, "raw_item", {})
                    output = item.output
                    try:
                        output = json.loads(output) if isinstance(output, str) else output
                        if isinstance(output, dict) and "text" in output and isinstance(output["text"], str):
                            output = json.loads(output["text"])
                    except Exception:
                        pass
                    record["toolOutputs"].append({"tool": guess_tool(output), "result": output})
            record["turns"] = len(result.raw_responses)
            record["tokensOut"] = sum((r.usage.output_tokens or 0) for r in result.raw_responses if r.usage)
    except Exception as error:  # a failed run is a result too
        record["error"] = f"{type(error).__name__}: {error}"[:500]
    record["wallSeconds"] = time.monotonic() - started
    return record


def guess_tool(output) -> str:
    if isinstance(output, dict):
        if "freeDays" in output:
            return "calendarFreeDays"
        if "results" in output:
            return "findPointsOfInterest"
        if "contacts" in output:
            return "searchContacts"
    return "unknown"


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("requests")
    parser.add_argument("--agent", required=True)
    parser.add_argument("--server", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    options = parser.parse_args()
    set_tracing_disabled(True)
    requests = [json.loads(line) for line in open(options.requests) if line.strip() and not line.startswith("#")]
    process, url = start_server(options.server, options.model, options.threads)
    try:
        for _ in range(options.runs):
            for request in requests:
                print(json.dumps(await plan(request, options.agent, url)), flush=True)
    finally:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    asyncio.run(main())
