"""Module docstrings say what the module is for, in a few lines: every module of core and tui
with code has one; its opening paragraph is at most :data:`OPENING_LINES` lines and the whole at
most :data:`MAX_LINES`; it names no issue number or commit hash; timings and other measurements
belong to ``bench/`` and ``docs/``, never to a docstring (they go stale where no bench reruns
them).

What is not there yet is named in ALLOW-LISTS THAT ONLY SHRINK: a module that passes must leave
its list, a module not listed must pass."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(p for folder in ("core", "tui") for p in (ROOT / folder).rglob("*.py"))

OPENING_LINES = 5
MAX_LINES = 30

ISSUE = re.compile(r"\bissues?\s*#?\d+|(?<![\w&])#\d+\b", re.IGNORECASE)
# a commit hash: 7 to 40 hex digits with a digit and a letter in them, outside quotes and code
# spans (where an example id such as ``memory 1a2b3c4d`` may stand)
COMMIT = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
QUOTED = re.compile(r"``.*?``|`[^`\n]*`|\"[^\"\n]*\"|“[^”\n]*”", re.DOTALL)
# a timing or a speed-up: "~1.5 ms", "0.65 s of start-up", "21.9 s of 30 s", "3x faster"
MEASUREMENT = re.compile(
    r"\d(?:[\d,]*\d)?(?:\.\d+)?\s?(?:ms|µs|ns)\b"
    r"|~\s?\d[\d.,]*\s?(?:s|seconds?|minutes?|ms|µs|MB|KB|MiB|KiB|GB)\b"
    r"|\d(?:\.\d+)?\s?s\s+of\b"
    r"|\d(?:\.\d+)?\s?(?:x|×)\s+(?:faster|slower)\b",
)

#: WORK REMAINING, modules others are rewriting: longer openings, longer docstrings, and
#: measurements still to move to bench/ or docs/.
LONG_OPENING = {
    "tui/app/main/bulk.py", "tui/app/main/marks.py",
    "tui/app/main/opening.py",
    "tui/mcp/access.py", "tui/mcp/hints.py", "tui/mcp/tools_conversation.py",
    "tui/mcp/tools_server.py", "tui/mcp/tools_unified.py",
}
LONG_DOCSTRING: set[str] = set()
MEASURED = {
    "core/search/wordlists.py", "core/vault/use.py", "tui/mcp/__init__.py",
}


def _docstring(path: Path) -> str | None:
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=True)


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _opening_lines(doc: str) -> int:
    return len(doc.strip().split("\n\n")[0].splitlines())


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_a_module_says_what_it_is_for_in_a_few_lines(path: Path) -> None:
    doc = _docstring(path)
    if doc is None:
        assert not path.read_text(encoding="utf-8").strip(), "a module with code and no docstring"
        return
    name = _name(path)
    assert (_opening_lines(doc) <= OPENING_LINES) != (name in LONG_OPENING), (
        f"{_opening_lines(doc)} lines before the first blank line (at most {OPENING_LINES}); "
        "or it passes now: take it out of LONG_OPENING")
    lines = len(doc.splitlines())
    assert (lines <= MAX_LINES) != (name in LONG_DOCSTRING), (
        f"{lines} lines (at most {MAX_LINES}: the rest belongs in docs/); or it passes now: "
        "take it out of LONG_DOCSTRING")


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_a_module_docstring_names_no_issue_commit_or_measurement(path: Path) -> None:
    doc = _docstring(path) or ""
    assert ISSUE.findall(doc) == []
    assert COMMIT.findall(QUOTED.sub("", doc)) == []
    found = [m.group() for m in MEASUREMENT.finditer(doc)]
    assert bool(found) == (_name(path) in MEASURED), (
        f"measurements {found}: they go to bench/README.md or docs/; or it has none now: take "
        "it out of MEASURED")


def test_the_rules_catch_what_they_are_for() -> None:
    """The patterns above find what they must and pass what they must not."""
    assert ISSUE.findall("Fixed in issue 30, see #12.") == ["issue 30", "#12"]
    assert ISSUE.findall("the tissue, the issuer, a colour like &#39;") == []
    assert COMMIT.findall(QUOTED.sub("", "951793c wrote the file; ``memory 1a2b3c4d``")) \
        == ["951793c"]
    assert COMMIT.findall("deadbeef, 1234567, a face") == []  # all letters, all digits
    for measured in ("~1.5 ms for a note", "costs ~0.65 s of start-up", "waited 21.9 s of 30 s",
                     "3x faster", "~0.1 s at 10k rows", "2-10 ms a search"):
        assert MEASUREMENT.search(measured), measured
    for plain in ("300 seconds between two recalls", "the 16 MiB limit", "at most 12 members",
                  "0.85 x the content's tokens", "5-15% fewer tokens"):
        assert not MEASUREMENT.search(plain), plain
