"""The package index and the MCP registry get one consistent description of memvault:
pyproject.toml's metadata, server.json (the registry's entry) and the README's ``mcp-name``
marker (how the registry checks that the PyPI package is the server's) agree."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _server() -> dict:
    return json.loads((ROOT / "server.json").read_text())


def test_the_package_metadata_is_ready_for_the_index():
    project = _project()
    assert project["readme"] == "README.md" and (ROOT / "README.md").is_file()
    assert re.fullmatch(r"\d+\.\d+\.\d+", project["version"])
    assert len(project["description"]) <= 200
    assert {"mcp", "model-context-protocol"} <= set(project["keywords"])
    classifiers = project["classifiers"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]  # PEP 639
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert not [c for c in classifiers if c.startswith("License ::")]  # the expression says it
    assert "Environment :: Console :: Curses" not in classifiers  # Textual is no curses app
    assert f"Programming Language :: Python :: {project['requires-python'][2:]}" in classifiers
    assert len(classifiers) == len(set(classifiers))
    assert set(project["urls"]) >= {"Homepage", "Documentation", "Repository", "Issues"}
    assert all(u.startswith("https://") for u in project["urls"].values())


def test_the_build_backend_reads_the_license_expression():
    """setuptools reads ``license = "MIT"`` and ``license-files`` from 77.0.3 on."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    (setuptools,) = [r for r in requires if r.startswith("setuptools")]
    wanted = tuple(int(n) for n in setuptools.split(">=")[1].split("."))
    assert wanted >= (77, 0, 3)


def test_the_sdist_holds_what_the_tests_read():
    """The sdist is a place the tests run from: it carries them, with their fixtures, the docs
    they check, the bench scripts and server.json (MANIFEST.in); run from an unpacked sdist
    (PKG-INFO beside pyproject.toml), they are there."""
    if (ROOT / "PKG-INFO").is_file():
        for path in ("LICENSE", "server.json", "tests/fixtures", "docs/architecture.md",
                     "bench/run.py"):
            assert (ROOT / path).exists(), path
        return
    manifest = (ROOT / "MANIFEST.in").read_text().split("\n")
    for line in ("include LICENSE server.json", "graft tests", "graft docs", "graft bench"):
        assert line in manifest, line


def test_server_json_agrees_with_the_package():
    project, server = _project(), _server()
    assert server["$schema"].startswith("https://static.modelcontextprotocol.io/schemas/")
    assert server["version"] == project["version"]
    assert server["repository"]["url"] == project["urls"]["Repository"]
    assert len(server["description"]) <= 100  # the registry's limit
    owner = server["repository"]["url"].removeprefix("https://github.com/").split("/")[0]
    assert server["name"].startswith(f"io.github.{owner}/")
    (package,) = server["packages"]
    assert package["registryType"] == "pypi" and package["identifier"] == project["name"]
    assert package["version"] == project["version"]
    assert package["transport"] == {"type": "stdio"}
    assert package["packageArguments"][0] == {"type": "positional", "value": "mcp"}
    assert project["scripts"][project["name"]]  # `uvx memvault mcp` runs this program


def test_the_readme_carries_the_registry_marker():
    marker = f"mcp-name: {_server()['name']}"
    assert marker in (ROOT / "README.md").read_text()
