"""``memvault mcp --http [HOST:]PORT``: the same server over the SDK's Streamable HTTP transport
(served by uvicorn, which the SDK depends on), at ``http://HOST:PORT/mcp``.

What guards it (the SDK's own parts, configured here, and memvault's around them):

* a bearer token on every request (the SDK's bearer middleware, with :class:`FileTokenVerifier`
  checking the token file of :mod:`tui.mcp.bearer`): none or a wrong one is ``401``;
* the ``Host`` and ``Origin`` headers against DNS rebinding (the SDK's transport security): a
  foreign ``Origin`` is ``403``, a foreign ``Host`` ``421``;
* the request body limit (``413`` past :data:`~tui.mcp.door.MAX_BODY`), a JSON-RPC check of
  every message (as over stdio), and an answer that ends when its token is replaced
  (:mod:`tui.mcp.door`);
* a deadline for each request, an idle timeout and a cap on open connections, so sockets that
  never finish a request cannot starve the clients that have the token
  (:mod:`tui.mcp.connections`);
* 127.0.0.1 by default; any address that is not loopback is refused unless the person asks for
  it (``allow_remote``) and a token was made before (shown with ``memvault mcp token``): a
  server reachable by other machines never starts on a token no one has seen.

Several clients at once each get their own session; tools run one at a time on the one vault
(:class:`~tui.mcp.access.VaultAccess`), every write under the vault's inter-process lock. On
SIGINT/SIGTERM uvicorn stops, the server's lifespan commits pending use records, and the process
exits.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import uvicorn
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.transport_security import TransportSecuritySettings

from core import VaultError

from .bearer import TokenFile, ensure_token, read_token, token_path
from .connections import Limits, limits_from_env, protocol_class
from .door import MAX_BODY, Door
from .notifications import watch_interval

DEFAULT_HOST = "127.0.0.1"
PATH = "/mcp"
GRACEFUL_SECONDS = 5  # open event streams are closed after this at shutdown
CLIENT_ID = "memvault-token"
_LOOPBACK_NAMES = ("localhost",)


@dataclass(frozen=True)
class Address:
    host: str
    port: int

    @property
    def loopback(self) -> bool:
        if self.host.lower() in _LOOPBACK_NAMES:
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False  # a name: whatever it resolves to, it is not known to be loopback

    @property
    def netloc(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def parse_address(text: str) -> Address:
    """``PORT``, ``HOST:PORT`` or ``[IPv6]:PORT``; port 0 lets the system pick a free one."""
    raw = text.strip()
    host, port_text = DEFAULT_HOST, raw
    if raw.startswith("["):
        inner, sep, rest = raw[1:].partition("]")
        if not sep or not rest.startswith(":"):
            raise VaultError(f"{text!r}: an IPv6 address is written [ADDRESS]:PORT")
        host, port_text = inner, rest[1:]
    elif ":" in raw:
        host, _, port_text = raw.rpartition(":")
        if ":" in host:
            raise VaultError(f"{text!r}: an IPv6 address is written [ADDRESS]:PORT")
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise VaultError(f"{text!r}: expected [HOST:]PORT with a port from 0 to 65535")
    if not host or any(c.isspace() or c in "/@?#" for c in host):
        raise VaultError(f"{text!r}: {host!r} is not a host name or address")
    return Address(host, int(port_text))


class FileTokenVerifier:
    """The SDK's ``TokenVerifier`` for the one token in the token file."""

    def __init__(self, tokens: TokenFile):
        self.tokens = tokens

    async def verify_token(self, token: str) -> AccessToken | None:
        if not self.tokens.accepts(token):
            return None
        return AccessToken(token="", client_id=CLIENT_ID, scopes=[])  # the token is not kept


@dataclass
class HttpSettings:
    """What ``memvault mcp --http`` was asked for."""

    address: Address
    allow_remote: bool = False
    allowed_origins: list[str] = field(default_factory=list)
    token_file: Path = field(default_factory=token_path)
    #: the request deadline, idle timeout and connection cap (``MEMVAULT_MCP_HTTP_*``)
    limits: Limits = field(default_factory=limits_from_env)


def check_settings(settings: HttpSettings) -> bool:
    """Refuse what must not start (VaultError); make the token at the first start. True when the
    token was made now."""
    address = settings.address
    if not address.loopback:
        if not settings.allow_remote:
            raise VaultError(
                f"refused: {address.host} is not a loopback address, so other machines could "
                "reach the vault; pass --allow-remote to mean it (and put it behind TLS)")
        if read_token(settings.token_file) is None:
            raise VaultError(
                "refused: serving beyond this machine needs a token made beforehand: run "
                "`memvault mcp token`, give it to the clients, then start again")
    for origin in settings.allowed_origins:
        if not origin.startswith(("http://", "https://")) or origin.rstrip("/") != origin:
            raise VaultError(f"--allow-origin {origin!r}: expected scheme://host[:port], "
                             "as a browser sends it")
    _token, made = ensure_token(settings.token_file)
    return made


def security_for(settings: HttpSettings, port: int) -> TransportSecuritySettings:
    """The SDK's DNS-rebinding check: the Host header must name this server (loopback names on
    any port for a loopback server, the address itself otherwise); an Origin header, when a
    browser sends one, must be this server's own or one allowed with --allow-origin."""
    address = settings.address
    hosts: list[str] = []
    origins: list[str] = list(settings.allowed_origins)
    if address.loopback:
        for name in ("127.0.0.1", "localhost", "[::1]"):
            hosts.append(f"{name}:{port}")
            origins += [f"http://{name}:{port}", f"https://{name}:{port}"]
    netloc = Address(address.host, port).netloc
    hosts.append(netloc)
    origins += [f"http://{netloc}", f"https://{netloc}"]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=sorted(set(hosts)),
                                     allowed_origins=sorted(set(origins)))


def auth_options(settings: HttpSettings) -> dict[str, Any]:
    """The MCPServer constructor's options that make every request carry the token."""
    issuer = f"http://{settings.address.netloc}"
    # validated as the model's own field (it keeps the URL's empty path, as the SDK means it)
    auth = AuthSettings.model_validate({"issuer_url": issuer, "resource_server_url": None})
    return {"token_verifier": FileTokenVerifier(TokenFile(settings.token_file)), "auth": auth}


def bind(address: Address, backlog: int) -> socket.socket:
    """The listening socket (bound here, so port 0's real port is known before serving)."""
    try:
        infos = socket.getaddrinfo(address.host, address.port, type=socket.SOCK_STREAM)
        family, kind, proto, _name, where = infos[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(where)
        sock.listen(backlog)
    except OSError as exc:
        raise VaultError(f"cannot listen on {address.netloc}: {exc.strerror or exc}") from None
    sock.setblocking(False)
    return sock


class _AnnouncingServer(uvicorn.Server):
    """uvicorn's server, saying on stderr where it listens once it accepts connections (a
    client, or a test, waits for that line)."""

    def __init__(self, config: uvicorn.Config, url: str):
        super().__init__(config)
        self.url = url

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            print(f"memvault: listening on {self.url}", file=sys.stderr, flush=True)


def serve(server: Any, settings: HttpSettings) -> None:
    """Serve ``server`` (an MCPServer built with :func:`auth_options`) until SIGINT/SIGTERM."""
    limits = settings.limits
    sock = bind(settings.address, limits.backlog)
    port = sock.getsockname()[1]
    app = server.streamable_http_app(streamable_http_path=PATH, max_request_body_size=MAX_BODY,
                                     transport_security=security_for(settings, port),
                                     host=settings.address.host)
    door = Door(app, TokenFile(settings.token_file), path=PATH, interval=watch_interval())
    url = f"http://{Address(settings.address.host, port).netloc}{PATH}"
    config = uvicorn.Config(door, log_level="warning", lifespan="on", access_log=False,
                            http=protocol_class(limits),
                            timeout_keep_alive=limits.idle_timeout,  # type: ignore[arg-type]
                            backlog=limits.backlog,
                            timeout_graceful_shutdown=GRACEFUL_SECONDS)
    anyio.run(_AnnouncingServer(config, url).serve, [sock])
