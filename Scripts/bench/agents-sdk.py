#!/usr/bin/env python3
"""The OpenAI Agents SDK's agent with two function tools on the embedded model, run N times against
llama-server's native tool calling and N times against `agent serve` (model "local", the same
llama-server underneath): per run, the calls it made and whether its answer uses the tools'
results ("18 C" and "21:00"). Both endpoints are given; nothing else is started.

    Scripts/bench/agents-sdk.py LLAMA_URL SERVE_URL [--runs 5]
(`Scripts/bench/agents-sdk.sh AGENT` starts both and calls this.) Tracing off: no network but 127.0.0.1.
"""
import argparse
import asyncio
import json
import time

from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool, set_tracing_disabled
from openai import AsyncOpenAI

set_tracing_disabled(True)
called = []


@function_tool
def get_weather(city: str) -> str:
    """The weather in a city now."""
    called.append({"name": "get_weather", "arguments": {"city": city}})
    return "18 C, sunny"


@function_tool
def get_time(timezone: str) -> str:
    """The time in a time zone now."""
    called.append({"name": "get_time", "arguments": {"timezone": timezone}})
    return "21:00"


async def run(base_url, model):
    client = AsyncOpenAI(base_url=base_url, api_key="none", max_retries=0, timeout=600)
    agent = Agent(name="assistant", instructions="Answer with the tools' results.", tools=[get_weather, get_time],
                  model=OpenAIChatCompletionsModel(model=model, openai_client=client))
    called.clear()
    started = time.monotonic()
    try:
        result = await Runner.run(agent, "What is the weather in Paris, and the time in Tokyo?", max_turns=6)
        final, error = str(result.final_output), None
    except Exception as failure:  # a run that fails is a result, not the end of the bench
        final, error = "", f"{type(failure).__name__}: {failure}"[:200]
    return {"seconds": round(time.monotonic() - started, 1), "called": list(called), "final": final[:200],
            "uses_results": "18" in final and "21" in final, "error": error}


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("llama")
    parser.add_argument("serve")
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    rows = {}
    for name, url, model in [("llama-server native tools", options.llama, "local"), ("agent serve", options.serve, "local")]:
        rows[name] = []
        for number in range(options.runs):
            outcome = await run(url, model)
            rows[name].append(outcome)
            print(json.dumps({"endpoint": name, "run": number + 1, **outcome}), flush=True)
    print("| endpoint | runs | runs that called both tools | answers that use both results | median s |")
    print("|---|---:|---:|---:|---:|")
    for name, outcomes in rows.items():
        both = sum({c["name"] for c in o["called"]} >= {"get_weather", "get_time"} for o in outcomes)
        used = sum(o["uses_results"] for o in outcomes)
        seconds = sorted(o["seconds"] for o in outcomes)[len(outcomes) // 2]
        print(f"| {name} | {len(outcomes)} | {both} | {used} | {seconds} |")


asyncio.run(main())
