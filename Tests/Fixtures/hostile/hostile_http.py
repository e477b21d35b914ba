"""A hostile HTTP peer for Trailhead's clients (MCP over HTTP, OpenAI-compatible models).

Listens on 127.0.0.1 at the port given (0: it prints the one it got on stdout), and serves forever.
A GET is answered well (a model list and health, so a client's probe passes); a POST's head and
body are read, then answered according to the first path segment:

  /negative-length   Content-Length: -5
  /negative-chunk    a chunk size of -5
  /huge-chunk        a chunk size of 16 hex digits
  /truncated-chunk   a chunk cut short, then the connection closes
  /two-lengths       two different Content-Lengths
  /endless-headers   header lines, forever
  /endless-event     one server-sent event line that never ends
  /invalid-utf8      a JSON content type and a body of invalid UTF-8
  /not-http          bytes that are not HTTP at all
  /silence           nothing at all, the connection held open
"""
import socket
import sys
import threading
import time


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        rest += chunk
    method, path = head.split(b"\r\n")[0].split(b" ")[:2]
    return method.decode(), path.decode()


def answer(conn, mode):
    if mode == "negative-length":
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: -5\r\n\r\n{}")
    elif mode == "negative-chunk":
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n")
    elif mode == "huge-chunk":
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n{}")
    elif mode == "truncated-chunk":
        conn.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n100\r\n{"jsonrpc":"2.0"')
    elif mode == "two-lengths":
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}")
    elif mode == "endless-headers":
        conn.sendall(b"HTTP/1.1 200 OK\r\n")
        while True:
            conn.sendall(b"X-Filler: " + b"a" * 1000 + b"\r\n")
    elif mode == "endless-event":
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: ")
        while True:
            conn.sendall(b"a" * 65536)
    elif mode == "invalid-utf8":
        body = b'{"jsonrpc":"2.0","id":1,"result":"\xff\xfe\xfd"}'
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    elif mode == "not-http":
        conn.sendall(b"\x00\x01\x02 this is not HTTP\r\n\r\n")
    elif mode == "silence":
        time.sleep(3600)


def serve(conn):
    try:
        with conn:
            request = read_request(conn)
            if request is None:
                return
            method, path = request
            if method == "GET":
                body = b'{"object":"list","data":[{"id":"hostile","object":"model"}],"status":"ok"}'
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
            else:
                answer(conn, path.strip("/").split("/")[0])
    except OSError:
        pass  # the client gave up: what a hostile server hopes for


def main():
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


main()
