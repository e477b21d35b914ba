#!/usr/bin/env python3
"""The server end to end: `agent mcp serve --http` (the same HTTPServer as `agent serve`) gets mutated
requests on raw sockets for a bounded time; after every few, a well-formed request must still be
answered 200 and the process must still run. Prints requests sent, statuses seen and failures.

usage: fuzz-server.py AGENT SECONDS PLUGINS MANIFESTS
"""
import collections, random, re, socket, subprocess, sys, time

agent, seconds, plugins, manifests = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
server = subprocess.Popen([agent, "mcp", "serve", "--http", "0", "--plugins", plugins, "--manifests", manifests],
                          stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
port = None
deadline = time.time() + 60
while port is None and time.time() < deadline:
    line = server.stderr.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/mcp", line)
    port = int(found.group(1)) if found else None
if port is None:
    sys.exit("fuzz-server: the server did not say where it listens")

INIT = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}'
CHECK = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(INIT) + INIT
def post(body, extra=b""):
    return (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Accept: application/json, text/event-stream\r\n" + extra + b"Content-Length: %d\r\n\r\n" % len(body) + body)
SEEDS = [
    post(INIT),
    post(b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}', b"Mcp-Session-Id: 00000000-0000-0000-0000-000000000000\r\n"),
    b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n",
    b"DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id: x\r\n\r\n",
    b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n" + b"%x\r\n" % len(INIT) + INIT + b"\r\n0\r\n\r\n",
]
TOKENS = [b"-1", b"-5", b"0", b"99999999999999999999", b"ffffffffffffffff", b"\r\n", b"\n", b"\r", b":", b" ", b"\x00",
          b"\xff\xfe", b"Content-Length: 7\r\n", b"Transfer-Encoding: chunked\r\n", b"Host: a\r\n", b"%00", b"../", b"\"", b"{", b"}"]

def mutate(data):
    data = bytearray(data)
    for _ in range(random.randint(1, 6)):
        choice = random.random()
        at = random.randint(0, len(data))
        if choice < 0.25 and data:
            data[min(at, len(data) - 1)] = random.randint(0, 255)
        elif choice < 0.45:
            data[at:at] = random.choice(TOKENS)
        elif choice < 0.6 and data:
            del data[at:at + random.randint(1, 16)]
        elif choice < 0.7:
            lines = bytes(data).split(b"\r\n")
            if len(lines) > 2:
                i = random.randint(1, len(lines) - 2)
                lines.insert(i, lines[i])
                data = bytearray(b"\r\n".join(lines))
        elif choice < 0.8:
            data = data[:at]
        elif choice < 0.9:
            data[at:at] = bytes(random.randint(1, 255) for _ in range(random.randint(1, 64)))
        else:
            data[at:at] = b"X-Pad: " + b"a" * random.randint(1000, 100000) + b"\r\n"
    return bytes(data)

def exchange(data, timeout=0.2, half_close=False):
    """Sends `data` and returns what came back before the server closed or `timeout` passed."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    answer = b""
    try:
        s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        while len(answer) < 65536:
            piece = s.recv(65536)
            if not piece:
                break
            answer += piece
    except (socket.timeout, ConnectionError, OSError):
        pass
    finally:
        s.close()
    return answer

def status(answer):
    found = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return found.group(1).decode() if found else "no answer"

random.seed(1)
statuses = collections.Counter()
sent = failures = 0
end = time.time() + seconds
while time.time() < end:
    statuses[status(exchange(mutate(random.choice(SEEDS)), half_close=random.random() < 0.3))] += 1
    sent += 1
    if sent % 25 == 0:
        if server.poll() is not None or status(exchange(CHECK, timeout=10)) != "200":
            failures += 1
            print(f"fuzz-server: after {sent} requests the server no longer serves (exit {server.poll()})", file=sys.stderr)
            if server.poll() is not None:
                break
alive = server.poll() is None and status(exchange(CHECK, timeout=10)) == "200"
server.terminate()
server.wait(timeout=10)
print(f"server end to end: {sent} mutated requests in {seconds:.0f} s, statuses {dict(sorted(statuses.items()))}, "
      f"{failures} failed checks, still serving at the end: {'yes' if alive else 'no'}")
sys.exit(0 if failures == 0 and alive else 1)
