"""A plain stdio MCP server written by hand (no MCP package): newline-delimited JSON-RPC 2.0.

Used by the proxy tests as "a server in another language". With PLAIN_RECORD_DIR set it
appends every byte it reads to in.bin and every byte it writes to out.bin, so a test can
compare what the server saw with what the client sent.
"""
import json
import os
import sys

RECORD = os.environ.get("PLAIN_RECORD_DIR")

TOOLS = [
    {"name": "echo", "description": "Echo the text back.",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
    {"name": "lookup", "description": "Look a query up; finds nothing.",
     "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}},
    {"name": "fail", "description": "Always reports an error result.",
     "inputSchema": {"type": "object"}},
    {"name": "strict", "description": "Needs an integer n.",
     "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}},
    {"name": "explode", "description": "Answers with an internal error.",
     "inputSchema": {"type": "object"}},
    {"name": "die", "description": "Exits mid-call with status 3.",
     "inputSchema": {"type": "object"}},
    {"name": "big", "description": "Returns mb megabytes of text.",
     "inputSchema": {"type": "object", "properties": {"mb": {"type": "number"}}}},
    {"name": "garble", "description": "Writes a malformed line, then answers.",
     "inputSchema": {"type": "object"}},
    {"name": "never_called", "description": "Registered, never used: a dead tool.",
     "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}},
]


def record(name, data):
    if RECORD:
        with open(os.path.join(RECORD, name), "ab") as f:
            f.write(data)


def write(data):
    record("out.bin", data)
    write_all(data)


def write_all(data):
    view = memoryview(data)
    while view:
        n = os.write(1, view)
        view = view[n:]


# While a batch is being answered, answers are collected here and sent as one array.
batch = None


def send(message):
    if batch is not None:
        batch.append(message)
        return
    write((json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))


def text(value, is_error=False):
    result = {"content": [{"type": "text", "text": value}]}
    if is_error:
        result["isError"] = True
    return result


def call(rid, params):
    name = params.get("name")
    args = params.get("arguments") or {}
    if name == "echo":
        return send({"jsonrpc": "2.0", "id": rid, "result": text(str(args.get("text", "")))})
    if name == "lookup":
        return send({"jsonrpc": "2.0", "id": rid, "result": text("[]")})
    if name == "fail":
        return send({"jsonrpc": "2.0", "id": rid, "result": text("the thing failed", True)})
    if name == "strict":
        if not isinstance(args.get("n"), int):
            return send({"jsonrpc": "2.0", "id": rid,
                         "error": {"code": -32602, "message": "n: expected an integer"}})
        return send({"jsonrpc": "2.0", "id": rid, "result": text(str(args["n"] * 2))})
    if name == "explode":
        return send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": "boom"}})
    if name == "die":
        sys.stdout.flush()
        os._exit(3)
    if name == "big":
        size = int(float(args.get("mb", 1)) * 1024 * 1024)
        return send({"jsonrpc": "2.0", "id": rid, "result": text("x" * size)})
    if name == "garble":
        write(b"{this is not json\n")
        return send({"jsonrpc": "2.0", "id": rid, "result": text("after the garble")})
    send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "unknown tool " + str(name)}})


def handle(line):
    global batch
    try:
        message = json.loads(line)
    except ValueError:
        return send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
    if isinstance(message, list):
        # A JSON-RPC batch: every member answered, the answers in one array.
        batch = []
        for item in message:
            if isinstance(item, dict):
                handle_one(item)
            else:
                send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "invalid request"}})
        answers, batch = batch, None
        if answers:
            send(answers)
        return
    if isinstance(message, dict):
        handle_one(message)


def handle_one(message):
    if "method" not in message:
        return
    method, rid, params = message["method"], message.get("id"), message.get("params") or {}
    if rid is None:
        return  # a notification
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": rid, "result": {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "plain-python", "version": "1.0.0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        call(rid, params)
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": rid, "result": {}})
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no method " + method}})


def main():
    pending = b""
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        record("in.bin", chunk)
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            if line.strip():
                handle(line.decode("utf-8", errors="replace"))


if __name__ == "__main__":
    main()
