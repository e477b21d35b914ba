"""The OpenAI Agents SDK against `agent serve`: an agent with two function tools on
OpenAIChatCompletionsModel pointed at the server — and on OpenAIResponsesModel, each run plain and
streamed (its tracing off: no network but 127.0.0.1). Prints, per run, the tools it called, with
what, and its final output."""
import asyncio
import json
import sys

from agents import Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner, function_tool, set_tracing_disabled
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


async def run(kind, streamed):
    client = AsyncOpenAI(base_url=base_url, api_key="none", max_retries=0)
    served = (OpenAIChatCompletionsModel if kind == "chat" else OpenAIResponsesModel)(model=model, openai_client=client)
    agent = Agent(name="assistant", instructions="Answer with the tools' results.", tools=[get_weather, get_time], model=served)
    question = "What is the weather in Paris, and the time in Tokyo?"
    called.clear()
    if streamed:
        result = Runner.run_streamed(agent, question, max_turns=4)
        async for _ in result.stream_events():
            pass
    else:
        result = await Runner.run(agent, question, max_turns=4)
    return {"model": kind, "streamed": streamed, "called": list(called), "final": result.final_output,
            "items": [item.type for item in result.new_items]}


async def main():
    runs = [await run(kind, streamed) for kind in ["chat", "responses"] for streamed in [False, True]]
    print(json.dumps({"runs": runs}))


asyncio.run(main())
