"""The OpenAI Agents SDK against `agent serve`: an agent with two function tools on
OpenAIChatCompletionsModel pointed at the server (its tracing off: no network but 127.0.0.1).
Prints what the run did: the tools it called, with what, and its final output."""
import asyncio
import json
import sys

from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool, set_tracing_disabled
from openai import AsyncOpenAI

base_url, model = sys.argv[1], sys.argv[2]
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


async def main():
    client = AsyncOpenAI(base_url=base_url, api_key="none", max_retries=0)
    agent = Agent(
        name="assistant", instructions="Answer with the tools' results.", tools=[get_weather, get_time],
        model=OpenAIChatCompletionsModel(model=model, openai_client=client))
    result = await Runner.run(agent, "What is the weather in Paris, and the time in Tokyo?", max_turns=4)
    kinds = [item.type for item in result.new_items]
    print(json.dumps({"called": called, "final": result.final_output, "items": kinds}))


asyncio.run(main())
