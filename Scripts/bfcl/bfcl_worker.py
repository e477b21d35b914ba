#!/usr/bin/env python3
"""The Python half of `agent eval --bfcl`: BFCL v4 cases, the peers, and BFCL's own AST checker.

The Berkeley Function Calling Leaderboard ships its data and checker in the `bfcl-eval` wheel
(Apache-2.0), installed with --no-deps by `Scripts/setup-python.sh`: its dependencies include
torch and every vendor SDK. The AST checker imports the model registry only to ask whether a model
writes dots in function names as underscores; a stand-in registry answers "no" for every model, so
the checker runs unmodified without the registry's imports. Nothing of BFCL is copied here.

Runs as a worker: one JSON request per line on stdin, one JSON answer per line on stdout.
  {"op": "cases", "categories": [...], "limit": N}
      -> {"instructions": BFCL's system prompt (its task; not its output format),
          "cases": [{"id", "category", "question": [messages], "function": [BFCL docs],
                     "tools": [OpenAI-style tools, converted as BFCL converts them]}]}
  {"op": "peer", "id": ID, "url": "http://127.0.0.1:PORT/v1", "model": NAME, "client": "openai"?}
      -> the same model with native `tools` (tool_choice auto, as the OpenAI Agents SDK and most
         runtimes send it; with the official `openai` client when asked — how `agent serve` is driven): {"seconds", "prompt_tokens", "completion_tokens", "content",
         "native": [calls from tool_calls], "text": [calls read out of the text]}
  {"op": "score", "id": ID, "calls": [{"name", "arguments"}]}
      -> {"valid": bool, "error": "...", "kind": BFCL's error type}: BFCL's verdict (irrelevance:
         valid when there is no call)
Multi-turn categories (`multi_turn_base`): a case's "question" holds one list of messages per user
turn, and its functions are the documents of its backend classes (a file system, a message API, …),
executed for real by BFCL's own backends, one live instance per case and agent:
  {"op": "execute", "id": ID, "agent": NAME, "calls": [{"name", "arguments"}]}
      -> {"results": [one string per call, as BFCL's executor returns it]}
  {"op": "peer_conversation", "id": ID, "mode": "native" | "text", "url", "model", "agent", ...}
      -> the peer driven through every turn as a framework drives it (calls executed, results sent
         back as `tool` messages; past BFCL's 20 steps in a turn, ended as BFCL's runner ends it):
         {"turns": [[[calls of a step]]] (fewer than the case's when forced to quit),
         "seconds", "prompt_tokens", "completion_tokens"}
  {"op": "score_conversation", "id": ID, "agent": NAME, "turns": [[[{"name", "arguments"}]]]}
      -> {"valid", "error", "kind", "turns_right", "turns"}: BFCL's `multi_turn_checker`, which replays
         the calls on fresh backends and compares their state and results with the ground truth's,
         turn by turn; "turns_right" of the case's "turns" pass before the first miss.
A request that fails comes back as {"failure": "..."} and the worker goes on.
"""
import copy
import json
import re
import sys
import time
import types
import urllib.error
import urllib.request

# The checker asks MODEL_CONFIG_MAPPING[model].underscore_to_dot; Trailhead keeps dots in names.
_registry = types.ModuleType("bfcl_eval.constants.model_config")


class _Config:
    underscore_to_dot = False


class _Registry(dict):
    def __missing__(self, key):
        return _Config()


_registry.MODEL_CONFIG_MAPPING = _Registry()
sys.modules["bfcl_eval.constants.model_config"] = _registry

import bfcl_eval  # noqa: E402
from bfcl_eval.constants.enums import Language  # noqa: E402
from bfcl_eval.constants.default_prompts import PROMPT_STYLE_TEMPLATES  # noqa: E402
from bfcl_eval.constants.type_mappings import GORILLA_TO_OPENAPI  # noqa: E402
from bfcl_eval.constants.default_prompts import MAXIMUM_STEP_LIMIT  # noqa: E402
from bfcl_eval.constants.executable_backend_config import MULTI_TURN_FUNC_DOC_FILE_MAPPING  # noqa: E402
from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker  # noqa: E402
from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import multi_turn_checker  # noqa: E402
from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils import execute_multi_turn_func_call  # noqa: E402

DATA = bfcl_eval.__path__[0] + "/data"
CHECKER_MODEL = "trailhead"
# What BFCL's default system prompt tells every model about its task; the part on the output
# format and the function list is each runtime's own business (Trailhead's step schema, the server's
# native tools).
_classic = PROMPT_STYLE_TEMPLATES["classic"]
INSTRUCTIONS = _classic["persona"] + " " + _classic["task"]
# ... and, in a conversation, what it says of turns.
MULTI_TURN_INSTRUCTIONS = INSTRUCTIONS + " " + _classic["multiturn_behavior"]
cases = {}
answers = {}


def load(category):
    def read(path):
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]

    entries = read(f"{DATA}/BFCL_v4_{category}.json")
    if category.startswith("multi_turn"):
        for entry in entries:
            # As BFCL's `populate_test_cases_with_predefined_functions`: the backends' documents.
            entry["function"] = [doc for name in entry["involved_classes"]
                                 for doc in read(f"{DATA}/multi_turn_func_doc/{MULTI_TURN_FUNC_DOC_FILE_MAPPING[name]}")]
    if "irrelevance" not in category:
        for entry in read(f"{DATA}/possible_answer/BFCL_v4_{category}.json"):
            answers[entry["id"]] = entry["ground_truth"]
    return entries


def openai_type(schema):
    """BFCL's own conversion of its parameter types for function-calling models (`_cast_to_openai_type`):
    dict -> object, float -> number (with a note), tuple -> array, unknown -> string; nested items too."""
    if "type" not in schema:
        schema["type"] = "string"
    else:
        kind = schema["type"]
        if kind == "float":
            schema["format"] = "float"
            schema["description"] = schema.get("description", "") + " This is a float type value."
        schema["type"] = GORILLA_TO_OPENAPI.get(kind, "string")
    if schema["type"] in ("array", "object"):
        if "properties" in schema:
            for value in schema["properties"].values():
                openai_type(value)
        elif "items" in schema:
            openai_type(schema["items"])
    return schema


def tool(function):
    function = copy.deepcopy(function)
    parameters = function.get("parameters", {})
    parameters["type"] = "object"
    for value in parameters.get("properties", {}).values():
        openai_type(value)
    return {"type": "function", "function": {"name": function["name"], "description": function.get("description", ""),
                                             "parameters": parameters}}


def op_cases(request):
    found = []
    for category in request["categories"]:
        entries = load(category)
        limit = request.get("limit")
        for entry in entries[:limit] if limit else entries:
            entry["category"] = category
            entry["tools"] = [tool(f) for f in entry["function"]]
            cases[entry["id"]] = entry
            found.append({k: entry[k] for k in ("id", "category", "question", "function", "tools")})
    return {"cases": found, "instructions": INSTRUCTIONS, "multi_turn_instructions": MULTI_TURN_INSTRUCTIONS}


def arguments_of(value):
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    return value if isinstance(value, dict) else None


def calls_in_text(text):
    """Calls a lenient client reads out of a reply that is text: ```json fences, <tool_call> tags or bare
    JSON, holding {"name", "arguments"} (or "parameters"), {"function": …} objects, or lists of them."""
    candidates = re.findall(r"```(?:json)?\s*(.*?)```", text, re.S) + re.findall(r"<tool_call>\s*(.*?)\s*</tool_call>", text, re.S)
    if not candidates:
        candidates = [text]
    calls = []
    decoder = json.JSONDecoder()
    for candidate in candidates:
        index = 0
        while index < len(candidate):
            start = min([i for i in (candidate.find("{", index), candidate.find("[", index)) if i >= 0], default=-1)
            if start < 0:
                break
            try:
                value, end = decoder.raw_decode(candidate, start)
            except ValueError:
                index = start + 1
                continue
            index = end
            for item in value if isinstance(value, list) else [value]:
                if not isinstance(item, dict):
                    continue
                if isinstance(item.get("function"), dict):
                    item = item["function"]
                name = item.get("name") or (item.get("function") if isinstance(item.get("function"), str) else None)
                arguments = arguments_of(item.get("arguments", item.get("parameters", {})))
                if isinstance(name, str) and arguments is not None:
                    calls.append({"name": name, "arguments": arguments})
    return calls


class ClientFailure(Exception):
    """The official client's request failed (the case fails, not the evaluation)."""


def chat(request, messages, tools):
    """One chat-completions request of a peer: (message, usage); raises on a failed request.
    "client": "openai" sends it with the official `openai` client, as frameworks do (`agent serve`)."""
    body = {"model": request.get("model", "local"), "messages": messages, "tools": tools,
            "tool_choice": "auto", "stream": False, "temperature": request.get("temperature", 0)}
    if request.get("max_tokens"):
        body["max_tokens"] = request["max_tokens"]
    if request.get("client") == "openai":
        import openai
        client = openai.OpenAI(base_url=request["url"], api_key="unused", timeout=request.get("timeout", 600), max_retries=0)
        try:
            reply = client.chat.completions.create(**body).model_dump(exclude_none=True)
        except openai.OpenAIError as error:
            raise ClientFailure(f"{type(error).__name__}: {error}") from error
        return reply["choices"][0]["message"], reply.get("usage", {})
    http = urllib.request.Request(request["url"].rstrip("/") + "/chat/completions", data=json.dumps(body).encode(),
                                  headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(http, timeout=request.get("timeout", 600)) as response:
        reply = json.load(response)
    return reply["choices"][0]["message"], reply.get("usage", {})


def system_prompt(request, instructions):
    """BFCL's system prompt as the first message, unless the request says "instructions": false."""
    return [{"role": "system", "content": instructions}] if request.get("instructions", True) else []


def native_calls(message):
    calls = []
    for call in message.get("tool_calls") or []:
        arguments = arguments_of(call["function"].get("arguments", "{}"))
        calls.append({"name": call["function"]["name"], "arguments": arguments if arguments is not None else {}})
    return calls


def op_peer(request):
    case = cases[request["id"]]
    messages = system_prompt(request, INSTRUCTIONS) + case["question"][0]
    started = time.monotonic()
    try:
        message, usage = chat(request, messages, case["tools"])
    except (TimeoutError, urllib.error.URLError, ClientFailure) as error:
        # The peer failed this case (no calls), not the whole evaluation.
        return {"seconds": time.monotonic() - started, "prompt_tokens": None, "completion_tokens": None,
                "content": "", "native": [], "text": [], "error": f"{type(error).__name__}: {error}"}
    native = native_calls(message)
    content = message.get("content") or ""
    return {"seconds": time.monotonic() - started, "prompt_tokens": usage.get("prompt_tokens"),
            "completion_tokens": usage.get("completion_tokens"), "content": content, "native": native,
            "text": native + calls_in_text(content)}


def call_string(call):
    """A call as BFCL's executor and checker read it: `name(key=repr(value), …)` (BFCL's own
    `convert_to_function_call`)."""
    arguments = call.get("arguments") or {}
    return f"{call['name']}({','.join(f'{key}={value!r}' for key, value in arguments.items())})"


def op_execute(request):
    case = cases[request["id"]]
    results, _ = execute_multi_turn_func_call([call_string(call) for call in request.get("calls") or []],
                                              case["initial_config"], case["involved_classes"],
                                              request["agent"], case["id"])
    return {"results": results}


def op_peer_conversation(request):
    """A peer through the whole conversation, the way a framework drives a chat-completions server:
    the case's functions as `tools`, each reply's calls executed and sent back as `tool` messages
    until a reply calls nothing, then the next user turn. Mode "native" reads the calls the server
    parsed; "text" also reads calls out of the reply's text. A turn that goes past BFCL's step limit
    ends the conversation, as BFCL's own runner forces a model to quit (`base_handler`'s
    `force_quit`): the turns come back fewer than the case's, which BFCL's checker fails whole
    (`op_score_conversation`). Driven on through the limit, a peer repeating one call spent 20 steps
    on each later turn too, on a context that grew past 12,000 tokens (docs/TOOL-CALLING.md)."""
    case = cases[request["id"]]
    agent = request.get("agent") or "peer_" + request["mode"]
    messages = system_prompt(request, MULTI_TURN_INSTRUCTIONS)
    turns, prompt_tokens, completion_tokens, error, forced = [], 0, 0, None, False
    started = time.monotonic()
    for question in case["question"]:
        messages += question
        steps = []
        while not forced:
            try:
                message, usage = chat(request, messages, case["tools"])
            except (TimeoutError, urllib.error.URLError, ClientFailure) as failure:
                error = f"{type(failure).__name__}: {failure}"
                break
            prompt_tokens += usage.get("prompt_tokens") or 0
            completion_tokens += usage.get("completion_tokens") or 0
            content = message.get("content") or ""
            calls = native_calls(message)
            if request["mode"] == "text":
                calls += calls_in_text(content)
            if not calls:
                messages.append({"role": "assistant", "content": content})
                break
            steps.append(calls)
            ids = [f"call_{len(messages)}_{index}" for index in range(len(calls))]
            messages.append({"role": "assistant", "content": content, "tool_calls": [
                {"id": ids[index], "type": "function",
                 "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
                for index, call in enumerate(calls)]})
            results, _ = execute_multi_turn_func_call([call_string(call) for call in calls], case["initial_config"],
                                                      case["involved_classes"], agent, case["id"])
            messages += [{"role": "tool", "tool_call_id": ids[index], "content": result}
                         for index, result in enumerate(results)]
            forced = len(steps) > MAXIMUM_STEP_LIMIT
        turns.append(steps)
        if error or forced:
            break
    while len(turns) < len(case["question"]) and not forced:
        turns.append([])
    return {"turns": turns, "seconds": time.monotonic() - started, "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens, "error": error}


def op_score_conversation(request):
    """Fewer turns than the case has are a conversation its runner forced to quit; BFCL's
    `eval_runner` fails such an entry whole (`multi_turn:force_terminated`) without replaying it.
    Its turns before the forced one are still counted in "turns_right"."""
    case = cases[request["id"]]
    turns = [[[call_string(call) for call in step] for step in turn] for turn in request.get("turns") or []]
    if len(turns) < len(case["question"]):
        forced = len(turns) - 1
        turns += [[] for _ in range(len(case["question"]) - len(turns))]
        return {"valid": False, "kind": "multi_turn:force_terminated",
                "error": f"forced to quit in turn {forced} after more than {MAXIMUM_STEP_LIMIT} steps",
                "turns_right": min(forced, turns_right(turns, case, request["agent"])), "turns": len(answers[case["id"]])}
    verdict = multi_turn_checker(turns, answers[case["id"]], case, case["category"], request["agent"])
    return {"valid": bool(verdict["valid"]), "error": str(verdict.get("error_message", ""))[:300],
            "kind": verdict.get("error_type", ""),
            "turns_right": turns_right(turns, case, request["agent"]) if not verdict["valid"] else len(answers[case["id"]]),
            "turns": len(answers[case["id"]])}


def turns_right(turns, case, agent):
    """How many turns from the first BFCL's checker passes (the conversation's first miss is the
    next): the same checker on the ground truth cut to 1, 2, … turns, each replay on fresh backends
    (an agent name of its own per cut, so no replay sees another's state). A graded measure where
    whole conversations are all missed."""
    ground_truth = answers[case["id"]]
    for count in range(1, len(ground_truth) + 1):
        cut = dict(case, question=case["question"][:count])
        if not multi_turn_checker(turns[:count], ground_truth[:count], cut, case["category"], f"{agent}_first{count}")["valid"]:
            return count - 1
    return len(ground_truth)


def op_score(request):
    case = cases[request["id"]]
    calls = request.get("calls") or []
    if "irrelevance" in case["category"]:
        return {"valid": not calls, "error": "called a tool when none fits" if calls else "",
                "kind": "irrelevance:called" if calls else ""}
    if not calls:
        return {"valid": False, "error": "no call", "kind": "no call"}
    output = [{call["name"]: call.get("arguments") or {}} for call in calls]
    verdict = ast_checker(case["function"], output, answers[case["id"]], Language.PYTHON, case["category"], CHECKER_MODEL)
    return {"valid": bool(verdict["valid"]), "error": "; ".join(str(e) for e in verdict.get("error", []))[:300],
            "kind": verdict.get("error_type", "")}


OPS = {"cases": op_cases, "peer": op_peer, "score": op_score, "execute": op_execute,
       "peer_conversation": op_peer_conversation, "score_conversation": op_score_conversation}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            answer = OPS[request["op"]](request)
        except Exception as error:  # one bad case must not end the evaluation
            answer = {"failure": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
