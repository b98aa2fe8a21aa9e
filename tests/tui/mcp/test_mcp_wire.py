"""Raw JSON-RPC over a spawned ``memvault mcp``'s stdio: a line the SDK cannot take gets the
error JSON-RPC 2.0 names for it, with the request's id when one can be read, and the server
goes on serving (before, the client waited for its own timeout)."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
from collections.abc import Iterator

import pytest
from mcp_support import ROOT, TIMEOUT, server_env

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602


class Wire:
    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.selector = selectors.DefaultSelector()
        self.selector.register(proc.stdout, selectors.EVENT_READ)
        self.pending = b""  # read from the pipe, not answered yet (several lines may come at once)

    def send(self, raw: bytes) -> None:
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def answer(self) -> dict:
        """The next answer the server writes (waiting for it; TIMEOUT only as a failsafe),
        passing over the notifications it may send at any time (a memory that changed)."""
        while True:
            while b"\n" not in self.pending:
                assert self.selector.select(TIMEOUT), "no answer from the server"
                chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
                assert chunk, "the server closed its stdout"
                self.pending += chunk
            line, self.pending = self.pending.split(b"\n", 1)
            message = json.loads(line)
            if not (isinstance(message, dict) and "method" in message and "id" not in message):
                return message

    def ask(self, raw: bytes) -> dict:
        self.send(raw)
        return self.answer()


@pytest.fixture(scope="module")
def wire(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Wire]:
    """One server for the module: every bad line goes to the same one, which serves on."""
    tmp_path = tmp_path_factory.mktemp("wire")
    env = server_env(tmp_path / "home")
    proc = subprocess.Popen([sys.executable, "-m", "tui.cli", "mcp", "--vault",
                             str(tmp_path / "vault"), "--create"], cwd=str(ROOT), env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                            stderr=open(tmp_path / "stderr.txt", "wb"))
    w = Wire(proc)
    hello = w.ask(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}}).encode())
    assert hello["result"]["serverInfo"]["name"] == "memvault"
    w.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    yield w
    proc.stdin.close()
    assert proc.wait(timeout=TIMEOUT) == 0


def _still_serving(wire: Wire, n: int) -> None:
    assert wire.ask(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}' % n) == {
        "jsonrpc": "2.0", "id": n, "result": {}}


CASES = [
    ("wrong version", b'{"jsonrpc":"1.0","id":2,"method":"ping"}', INVALID_REQUEST, 2),
    ("no jsonrpc", b'{"id":2,"method":"ping"}', INVALID_REQUEST, 2),
    ("no method", b'{"jsonrpc":"2.0","id":3}', INVALID_REQUEST, 3),
    ("method not a string", b'{"jsonrpc":"2.0","id":3,"method":7}', INVALID_REQUEST, 3),
    ("params an array", b'{"jsonrpc":"2.0","id":4,"method":"tools/list","params":[1,2]}',
     INVALID_PARAMS, 4),
    ("an id that is an object", b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
     INVALID_REQUEST, None),
    ("nested 200 levels", b'{"jsonrpc":"2.0","id":5,"method":"ping","params":{"a":'
     + b"[" * 200 + b"]" * 200 + b"}}", INVALID_REQUEST, 5),
    ("nested past the parser", b'{"jsonrpc":"2.0","id":5,"method":"ping","params":{"a":'
     + b"[" * 50_000 + b"]" * 50_000 + b"}}", INVALID_REQUEST, None),
    ("a lone surrogate", b'{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":'
     b'"save_memory","arguments":{"content":"x\\ud800y"}}}', INVALID_PARAMS, 6),
    ("a raw control byte", b'{"jsonrpc":"2.0","id":7,"method":"ping\x01"}', PARSE_ERROR, None),
    ("not UTF-8", b'{"jsonrpc":"2.0","id":8,"method":"p\xffing"}', PARSE_ERROR, None),
    ("not JSON", b"hello", PARSE_ERROR, None),
    ("not an object", b"42", INVALID_REQUEST, None),
]


@pytest.mark.parametrize("raw,code,request_id", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_bad_line_is_answered_and_the_server_serves_on(wire: Wire, raw: bytes, code: int,
                                                            request_id: object):
    reply = wire.ask(raw)
    assert reply["jsonrpc"] == "2.0" and reply["id"] == request_id
    assert reply["error"]["code"] == code and reply["error"]["message"]
    _still_serving(wire, 100)


def test_a_batch_gets_an_error_for_each_request_in_it(wire: Wire):
    wire.send(b'[{"jsonrpc":"2.0","id":11,"method":"ping"},{"jsonrpc":"2.0","method":"x"},'
              b'{"jsonrpc":"2.0","id":"twelve","method":"ping"}]')
    replies = [wire.answer(), wire.answer()]
    assert [r["id"] for r in replies] == [11, "twelve"]
    assert all(r["error"]["code"] == INVALID_REQUEST for r in replies)
    assert wire.ask(b"[]")["error"]["code"] == INVALID_REQUEST
    _still_serving(wire, 13)


def test_nothing_is_written_by_a_refused_save(wire: Wire):
    wire.ask(b'{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"save_memory",'
             b'"arguments":{"content":"x\\udc00y"}}}')
    reply = wire.ask(b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":'
                     b'"read_graph","arguments":{}}}')
    assert reply["result"]["structuredContent"]["memories"] == []
