"""The bare Python peer: a newline-delimited JSON-RPC echo worker over pipes, and a client that
times N round trips to it (no SDK, no asyncio: the floor for Python over pipes).

    python jsonrpc_pipe_peer.py --calls 20000          # client: spawns itself as the worker
    python jsonrpc_pipe_peer.py --worker               # worker: serves stdin/stdout
"""

import argparse
import json
import subprocess
import sys
import time


def serve() -> None:
    out = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        arguments = request["params"]["arguments"]
        reply = {"jsonrpc": "2.0", "id": request["id"],
                 "result": {"content": [{"type": "text", "text": json.dumps(arguments)}],
                            "structuredContent": arguments, "isError": False}}
        out.write(json.dumps(reply) + "\n")
        out.flush()


def measure(calls: int, warmup: int) -> None:
    worker = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, bufsize=0)
    reader = worker.stdout
    samples = []

    def call(index: int) -> None:
        request = {"jsonrpc": "2.0", "id": index, "method": "tools/call",
                   "params": {"name": "echo", "arguments": {"text": "hello"}}}
        worker.stdin.write((json.dumps(request) + "\n").encode())
        reply = json.loads(reader.readline())
        assert reply["id"] == index

    for index in range(warmup):
        call(index)
    started = time.perf_counter()
    for index in range(calls):
        before = time.perf_counter()
        call(index)
        samples.append(time.perf_counter() - before)
    elapsed = time.perf_counter() - started
    worker.stdin.close()
    worker.wait()
    ordered = sorted(samples)
    print(json.dumps({"calls": calls, "calls_per_s": calls / elapsed,
                      "p50_us": ordered[len(ordered) // 2] * 1e6,
                      "p99_us": ordered[min(len(ordered) - 1, round((len(ordered) - 1) * 0.99))] * 1e6}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", action="store_true")
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--warmup", type=int, default=1000)
    options = parser.parse_args()
    if options.worker:
        serve()
    else:
        measure(options.calls, options.warmup)
