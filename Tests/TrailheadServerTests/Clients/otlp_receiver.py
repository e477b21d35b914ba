"""An OTLP/HTTP trace receiver for the telemetry test: decodes each export with the official
opentelemetry-proto classes (protobuf, or OTLP/JSON with its hex ids turned into protobuf-JSON's
base64) and appends it, as protobuf's JSON mapping, one line per export, to OUTPUT.

    python otlp_receiver.py PORT OUTPUT
"""
import base64
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

port, output = int(sys.argv[1]), sys.argv[2]


def hex_ids_to_base64(value):
    """OTLP/JSON writes trace and span ids in hex; protobuf's JSON mapping reads bytes as base64."""
    if isinstance(value, dict):
        return {key: (base64.b64encode(bytes.fromhex(item)).decode() if key in ("traceId", "spanId", "parentSpanId") else hex_ids_to_base64(item))
                for key, item in value.items()}
    if isinstance(value, list):
        return [hex_ids_to_base64(item) for item in value]
    return value


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        kind = self.headers.get("Content-Type", "")
        request = ExportTraceServiceRequest()
        try:
            if kind.startswith("application/json"):
                json_format.Parse(json.dumps(hex_ids_to_base64(json.loads(body))), request)
            else:
                request.ParseFromString(body)
        except Exception as error:  # a malformed export is the test's failure: say why
            self.send_response(400)
            self.end_headers()
            self.wfile.write(str(error).encode())
            return
        with open(output, "a") as file:
            file.write(json.dumps({"contentType": kind, "request": json_format.MessageToDict(request)}) + "\n")
        self.send_response(200)
        self.send_header("Content-Type", kind or "application/json")
        self.end_headers()

    def log_message(self, *args):
        pass


print(f"listening on {port}", flush=True)
HTTPServer(("127.0.0.1", port), Handler).serve_forever()
