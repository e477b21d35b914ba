"""The official openai Python client with client-side tools against `agent serve` (a plain model,
scripted: its first turn calls get_weather and get_time, its second answers): chat completions and
responses, streamed and not, with tool_choice; the calls the client's stream helpers assemble must
equal those of the non-streamed response. Prints one JSON object with what it saw."""
import json
import sys

from openai import OpenAI

base_url, model, scenario = sys.argv[1], sys.argv[2], sys.argv[3]
client = OpenAI(base_url=base_url, api_key="none", max_retries=0)

TOOLS = [
    {"type": "function", "function": {
        "name": "get_weather", "description": "The weather in a city now.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
                       "required": ["city"]}}},
    {"type": "function", "function": {
        "name": "get_time", "description": "The time in a time zone now.",
        "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}}},
]
QUESTION = [{"role": "user", "content": "What is the weather in Paris, and the time in Tokyo?"}]
RESULTS = {"get_weather": "18 C, sunny", "get_time": "21:00"}


def calls_of(tool_calls):
    return [{"name": c.function.name, "arguments": json.loads(c.function.arguments)} for c in tool_calls or []]


def streamed_chat(**kwargs):
    """Assembles a streamed chat completion the way clients do: by each call's index."""
    calls, content, finish, usage = {}, "", None, None
    for chunk in client.chat.completions.create(stream=True, stream_options={"include_usage": True}, **kwargs):
        if chunk.usage:
            usage = chunk.usage
        for choice in chunk.choices:
            content += choice.delta.content or ""
            finish = choice.finish_reason or finish
            for delta in choice.delta.tool_calls or []:
                call = calls.setdefault(delta.index, {"id": None, "name": "", "arguments": ""})
                call["id"] = delta.id or call["id"]
                if delta.function:
                    call["name"] += delta.function.name or ""
                    call["arguments"] += delta.function.arguments or ""
    assembled = [calls[i] for i in sorted(calls)]
    assert all(c["id"] and c["id"].startswith("call_") for c in assembled), assembled
    return [{"name": c["name"], "arguments": json.loads(c["arguments"])} for c in assembled], content, finish, usage


seen = {}
if scenario == "named":
    # A script whose first turn calls get_weather alone: a named tool_choice, and one call at most.
    for options in [{"tool_choice": {"type": "function", "function": {"name": "get_weather"}}}, {"parallel_tool_calls": False}]:
        plain = client.chat.completions.create(model=model, messages=QUESTION, tools=TOOLS, **options)
        streamed, _, finish, _ = streamed_chat(model=model, messages=QUESTION, tools=TOOLS, **options)
        assert finish == "tool_calls" and streamed == calls_of(plain.choices[0].message.tool_calls), (streamed, plain)
        seen.setdefault("named_calls", []).append(streamed)
    print(json.dumps(seen))
    sys.exit(0)

for choice in ["auto", "required"]:
    plain = client.chat.completions.create(model=model, messages=QUESTION, tools=TOOLS, tool_choice=choice)
    message = plain.choices[0].message
    assert plain.choices[0].finish_reason == "tool_calls", plain
    assert all(c.id.startswith("call_") for c in message.tool_calls), message
    streamed, content, finish, usage = streamed_chat(model=model, messages=QUESTION, tools=TOOLS, tool_choice=choice)
    assert finish == "tool_calls" and content == "", (finish, content)
    assert streamed == calls_of(message.tool_calls), (streamed, calls_of(message.tool_calls))
    assert plain.usage is not None and usage is not None
    seen.setdefault("chat_calls", calls_of(message.tool_calls))

# The stream helper of the client (chat.completions.stream) assembles the same calls.
with client.chat.completions.stream(model=model, messages=QUESTION, tools=TOOLS) as stream:
    final = stream.get_final_completion()
seen["helper_calls"] = calls_of(final.choices[0].message.tool_calls)

# The client runs the calls and sends their outputs back: the model answers.
plain = client.chat.completions.create(model=model, messages=QUESTION, tools=TOOLS)
history = QUESTION + [plain.choices[0].message.model_dump(exclude_none=True)] + [
    {"role": "tool", "tool_call_id": c.id, "content": RESULTS[c.function.name]} for c in plain.choices[0].message.tool_calls]
answer = client.chat.completions.create(model=model, messages=history, tools=TOOLS)
seen["chat_answer"] = answer.choices[0].message.content
seen["chat_finish"] = answer.choices[0].finish_reason
_, streamed_answer, finish, _ = streamed_chat(model=model, messages=history, tools=TOOLS)
seen["chat_streamed_answer"] = streamed_answer

# The Responses API: function_call items, streamed and not, then function_call_output items
# continuing the response with previous_response_id.
RESPONSE_TOOLS = [{"type": "function", **t["function"]} for t in TOOLS]
first = client.responses.create(model=model, input=QUESTION[0]["content"], tools=RESPONSE_TOOLS)
calls = [item for item in first.output if item.type == "function_call"]
seen["responses_calls"] = [{"name": c.name, "arguments": json.loads(c.arguments)} for c in calls]
events, streamed_calls = [], []
for event in client.responses.create(model=model, input=QUESTION[0]["content"], tools=RESPONSE_TOOLS, stream=True):
    events.append(event.type)
    if event.type == "response.output_item.done" and event.item.type == "function_call":
        streamed_calls.append({"name": event.item.name, "arguments": json.loads(event.item.arguments)})
seen["responses_streamed_calls"] = streamed_calls
seen["responses_events"] = sorted(set(events))
second = client.responses.create(
    model=model, previous_response_id=first.id, tools=RESPONSE_TOOLS,
    input=[{"type": "function_call_output", "call_id": c.call_id, "output": RESULTS[c.name]} for c in calls])
seen["responses_answer"] = second.output_text
text = ""
for event in client.responses.create(
        model=model, previous_response_id=first.id, tools=RESPONSE_TOOLS, stream=True,
        input=[{"type": "function_call_output", "call_id": c.call_id, "output": RESULTS[c.name]} for c in calls]):
    if event.type == "response.output_text.delta":
        text += event.delta
seen["responses_streamed_answer"] = text
seen["responses_previous"] = second.previous_response_id == first.id

# A malformed request: a 400 that names the field.
try:
    client.chat.completions.create(model=model, messages=QUESTION, tools=TOOLS, tool_choice="sometimes")
    seen["bad_request"] = None
except Exception as error:
    seen["bad_request"] = {"status": getattr(error, "status_code", None), "param": (getattr(error, "body", None) or {}).get("param")}

print(json.dumps(seen))
