"""The HTTP door's bearer token file and the checks made before serving (no server started)."""

from __future__ import annotations

import os
import stat

import pytest

from core import VaultError
from tui.mcp.bearer import TokenFile, ensure_token, read_token, token_path, write_token
from tui.mcp.http import HttpSettings, check_settings, parse_address, security_for


def test_the_token_is_made_once_private_and_kept(tmp_path):
    path = tmp_path / "config" / "memvault" / "mcp-token"
    token, made = ensure_token(path)
    assert made and len(token) >= 40
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert ensure_token(path) == (token, False)
    assert read_token(path) == token
    rotated = write_token(path)
    assert rotated != token and read_token(path) == rotated
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_config_folder_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMVAULT_CONFIG_DIR", str(tmp_path / "mine"))
    assert token_path() == tmp_path / "mine" / "mcp-token"
    monkeypatch.delenv("MEMVAULT_CONFIG_DIR")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert token_path() == tmp_path / "xdg" / "memvault" / "mcp-token"


def test_a_token_file_others_can_read_a_link_or_garbage_is_refused(tmp_path):
    path = tmp_path / "mcp-token"
    write_token(path)
    os.chmod(path, 0o644)
    with pytest.raises(VaultError, match="can be read by others"):
        read_token(path)
    real = tmp_path / "elsewhere"
    real.write_text("x" * 50)
    os.chmod(real, 0o600)
    link = tmp_path / "linked-token"
    link.symlink_to(real)
    with pytest.raises(VaultError, match="not a plain file"):
        read_token(link)
    short = tmp_path / "short-token"
    short.write_text("abc\n")
    os.chmod(short, 0o600)
    with pytest.raises(VaultError, match="does not hold a token"):
        read_token(short)


def test_a_running_server_sees_a_rotation_and_a_removal_at_once(tmp_path):
    path = tmp_path / "mcp-token"
    first = write_token(path)
    tokens = TokenFile(path)
    assert tokens.accepts(first) and not tokens.accepts(first + "x")
    assert not tokens.accepts("") and not tokens.accepts("é" * 43)
    second = write_token(path)
    assert tokens.accepts(second) and not tokens.accepts(first)
    os.chmod(path, 0o640)  # made readable by others meanwhile: no one is let in
    assert not tokens.accepts(second)
    path.unlink()
    assert not tokens.accepts(second)


@pytest.mark.parametrize(("text", "host", "port"), [
    ("8765", "127.0.0.1", 8765), ("0", "127.0.0.1", 0), ("localhost:9000", "localhost", 9000),
    ("[::1]:8000", "::1", 8000), ("0.0.0.0:80", "0.0.0.0", 80),
])
def test_addresses(text, host, port):
    address = parse_address(text)
    assert (address.host, address.port) == (host, port)


@pytest.mark.parametrize("text", ["", "abc", "70000", "::1:80", "[::1]80", "host:", ":80x",
                                  "a b:80", "user@host:80"])
def test_bad_addresses_are_refused(text):
    with pytest.raises(VaultError):
        parse_address(text)


def test_loopback_and_beyond():
    assert parse_address("8000").loopback and parse_address("[::1]:1").loopback
    assert parse_address("localhost:1").loopback and parse_address("127.0.0.2:1").loopback
    assert not parse_address("0.0.0.0:1").loopback
    assert not parse_address("example.org:1").loopback


def test_beyond_loopback_needs_both_the_flag_and_a_token_made_before(tmp_path):
    path = tmp_path / "mcp-token"
    wide = parse_address("0.0.0.0:0")
    with pytest.raises(VaultError, match="--allow-remote"):
        check_settings(HttpSettings(wide, token_file=path))
    with pytest.raises(VaultError, match="token made beforehand"):
        check_settings(HttpSettings(wide, allow_remote=True, token_file=path))
    assert not path.exists()
    write_token(path)
    assert check_settings(HttpSettings(wide, allow_remote=True, token_file=path)) is False
    assert check_settings(HttpSettings(parse_address("0"), token_file=tmp_path / "t")) is True
    with pytest.raises(VaultError, match="allow-origin"):
        check_settings(HttpSettings(parse_address("0"), allowed_origins=["app.example"],
                                    token_file=path))


def test_the_host_and_origin_lists():
    loop = security_for(HttpSettings(parse_address("127.0.0.1:0")), 4321)
    assert loop.enable_dns_rebinding_protection
    assert {"127.0.0.1:4321", "localhost:4321", "[::1]:4321"} <= set(loop.allowed_hosts)
    assert "http://localhost:4321" in loop.allowed_origins
    assert not any("*" in h for h in loop.allowed_hosts + loop.allowed_origins)
    wide = security_for(HttpSettings(parse_address("192.0.2.7:80"), allow_remote=True,
                                     allowed_origins=["https://app.example"]), 80)
    assert wide.allowed_hosts == ["192.0.2.7:80"]
    assert "https://app.example" in wide.allowed_origins
    assert "http://localhost:80" not in wide.allowed_origins
