"""The official openai Python client against `agent serve`: a streamed chat completion (whose
agent calls a tool inside Trailhead), then a conversation over the Responses API continued with
previous_response_id. Prints one JSON object with what it saw."""
import json
import sys

from openai import OpenAI

base_url, agent = sys.argv[1], sys.argv[2]
client = OpenAI(base_url=base_url, api_key=sys.argv[3] if len(sys.argv) > 3 else "none", max_retries=0)

content, events, finish, chunks = "", [], None, 0
stream = client.chat.completions.create(
    model=agent, messages=[{"role": "user", "content": "When am I free?"}], stream=True)
for chunk in stream:
    chunks += 1
    extra = chunk.model_extra or {}
    if "trailhead" in extra:
        events.append(extra["trailhead"])
    for choice in chunk.choices:
        if choice.delta.content:
            content += choice.delta.content
        if choice.finish_reason:
            finish = choice.finish_reason

first = client.responses.create(model=agent, input="When am I free?")
second = client.responses.create(model=agent, input="And the weekend?", previous_response_id=first.id)

print(json.dumps({
    "content": content, "events": events, "finish": finish, "chunks": chunks,
    "first": first.output_text, "second": second.output_text, "second_previous": second.previous_response_id,
    "first_id": first.id,
}))
