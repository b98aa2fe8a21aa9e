"""A loopback proxy that adds ``memvault mcp --http``'s bearer token to every request, for a
client that cannot send a header (the MCP conformance suite):
``python bench/mcp_token_proxy.py --listen 8931 --to 8930 [--token-file PATH]``

Listens on 127.0.0.1 only; forwards each request (its method, path, headers and body) to the
server at 127.0.0.1:``--to`` with ``Authorization: Bearer <token>`` added (the token read from
the file ``memvault mcp token`` keeps, read again for each request so a rotation is followed),
(its own loopback Host and Origin changed for the server's; any other left as sent, so the
server's DNS-rebinding check still applies), and streams the answer back as it comes (an event stream included), then closes the connection.
It holds the token, so it must never listen on an address other machines reach: it refuses to.
docs/mcp.md, "The conformance suite", shows it in use. Standard library only.
"""

from __future__ import annotations

import argparse
import http.client
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
              "proxy-authorization", "proxy-authenticate", "authorization", "host",
              "content-length"}


def default_token_file() -> Path:
    sys.path.insert(0, str(ROOT))
    from tui.mcp.bearer import token_path

    return Path(token_path())


class Proxy(BaseHTTPRequestHandler):
    """One request forwarded; the answer streamed back (HTTP/1.0: closed at its end)."""

    listen_port = 0
    upstream_port = 0
    token_file = Path()

    def _forward(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
        headers["Authorization"] = "Bearer " + self.token_file.read_text().strip()
        # the proxy's own loopback address becomes the server's; any other Host or Origin goes
        # through as sent, so the server's DNS-rebinding check still refuses it
        here = {f"127.0.0.1:{self.listen_port}", f"localhost:{self.listen_port}"}
        there = f"127.0.0.1:{self.upstream_port}"
        host = self.headers.get("Host", "")
        headers["Host"] = there if host in here else host
        origin = self.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] in here:
            headers["Origin"] = f"http://{there}"
        upstream = http.client.HTTPConnection("127.0.0.1", self.upstream_port, timeout=3600)
        try:
            upstream.request(self.command, self.path, body=body, headers=headers)
            answer = upstream.getresponse()
            self.send_response_only(answer.status, answer.reason)
            for key, value in answer.getheaders():
                if key.lower() not in HOP_BY_HOP:
                    self.send_header(key, value)
            self.send_header("Connection", "close")
            self.end_headers()
            while chunk := answer.read1(65536):
                self.wfile.write(chunk)
                self.wfile.flush()
        except (ConnectionError, OSError) as exc:
            print(f"mcp_token_proxy: {self.command} {self.path}: {exc}", file=sys.stderr)
        finally:
            upstream.close()

    do_GET = do_POST = do_DELETE = _forward

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
        pass  # (quiet: the suite prints what it checks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", type=int, required=True, help="the port the client calls")
    parser.add_argument("--to", type=int, required=True, help="memvault mcp --http's port")
    parser.add_argument("--token-file", type=Path, default=None,
                        help="the token's file (default: the one `memvault mcp token` uses)")
    args = parser.parse_args(argv)
    Proxy.listen_port, Proxy.upstream_port = args.listen, args.to
    Proxy.token_file = args.token_file or default_token_file()
    Proxy.token_file.read_text()  # (a missing token stops it now, not at the first request)
    server = ThreadingHTTPServer(("127.0.0.1", args.listen), Proxy)
    print(f"http://127.0.0.1:{server.server_address[1]}/mcp -> 127.0.0.1:{args.to} "
          f"(token from {Proxy.token_file})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
