"""The metadata comment of a markdown memory, read as YAML (PyYAML's safe loader).

What cannot be read is reported with its line and left out, never raised: the block is read
whole; when YAML refuses it, each top-level field (a line at the block's indentation and the
lines under it) is read on its own, so one broken field costs only itself. A one-line comment
written as pairs without braces (``<!-- id: m1, importance: 1 -->``) is read as the flow mapping
it spells.

The surprises of YAML 1.1 that a memory's metadata should not meet are taken out (the scalars
are those of YAML 1.2's core schema, as a reader of the schema expects):

- only ``true``/``false`` are booleans: ``yes``, ``no``, ``on``, ``off`` stay words (a tag
  ``no`` is Norway, not False);
- timestamps stay text as written (``2026-01-29T14:30:00Z`` is the string; the import reads
  times itself), so every value can go to JSON unchanged;
- a number with a leading zero stays text (``id: 0042`` is "0042", not the octal 34), and so do
  ``1_000``, ``0x1F``, ``1:30`` (not 90) and ``.inf``/``.nan``; ``1e5`` is a float;
- ``=`` and ``<<`` are plain words (no value or merge keys), aliases (``*name``) are refused
  (each would be one more copy of a value in meta.extra: a few lines could grow to gigabytes), and
  a value YAML builds that JSON has no place for (``!!binary``, ``!!set``, ``!!timestamp``) is
  reported and left out;
- a key given twice: the later one is used, and the earlier is reported.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.nodes import MappingNode


@dataclass(frozen=True)
class BlockProblem:
    line: int  # 1-based, in the numbering of the rows given
    message: str


_BOOL, _INT, _FLOAT, _NULL = (f"tag:yaml.org,2002:{t}" for t in ("bool", "int", "float", "null"))


if yaml.__with_libyaml__:  # libyaml's parser (PyYAML's wheels have it): many times faster
    from yaml._yaml import CParser

    class _Base(CParser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):
        def __init__(self, stream: str):
            CParser.__init__(self, stream)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
else:  # pragma: no cover - PyYAML built without libyaml
    _Base = yaml.SafeLoader  # type: ignore[assignment,misc]


class _Loader(_Base):
    """safe_load's loader with YAML 1.2 core scalars, and duplicate keys noted."""

    yaml_implicit_resolvers: dict[Any, list[Any]] = {
        first: [(tag, rx) for tag, rx in resolvers if tag == _NULL]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}

    def __init__(self, stream: str):
        super().__init__(stream)
        self.duplicates: list[tuple[int, str, int]] = []  # (line, key, earlier line), 0-based

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, MappingNode):
            seen: dict[Any, int] = {}
            for key, _ in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        self.duplicates.append((key.start_mark.line, key.value, seen[key.value]))
                    seen[key.value] = key.start_mark.line
        return super().construct_mapping(node, deep=deep)


_Loader.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))
_Loader.add_implicit_resolver(_INT, re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$"),
                              list("-+0123456789"))
_Loader.add_implicit_resolver(
    _FLOAT, re.compile(r"^[-+]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?"
                       r"|\.[0-9]+(?:[eE][-+]?[0-9]+)?)$"),
    list("-+0123456789."))


def _alias(node: Any) -> Any:
    """The mark of a node reached twice (an alias to it), else None."""
    seen: set[int] = set()
    stack = [node]
    while stack:
        here = stack.pop()
        if id(here) in seen:
            return here.start_mark
        seen.add(id(here))
        if isinstance(here, MappingNode):
            stack.extend(n for pair in here.value for n in pair)
        elif isinstance(here, yaml.SequenceNode):
            stack.extend(here.value)
    return None


class _Unreadable(ValueError):
    def __init__(self, line: int, reason: str):
        super().__init__(reason)
        self.line, self.reason = line, reason


def _plain(value: Any) -> Any:
    """``value`` when JSON can hold it (int, float, bool, None keys become text), else
    ValueError."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("a number that is not finite")
        return value
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(k, bool):
                k = "true" if k else "false"
            elif k is None:
                k = "null"
            elif isinstance(k, (int, float)):
                k = str(k)
            elif not isinstance(k, str):
                raise ValueError(f"a key of type {type(k).__name__}")
            out[k] = _plain(v)
        return out
    raise ValueError(f"a value of type {type(value).__name__} ({value!r})")


_ALIAS = "an alias (*name) is not read"


def _reason(exc: yaml.YAMLError, text: str) -> str:
    """What YAML says, in plain words for the common cases."""
    if not isinstance(exc, yaml.MarkedYAMLError):
        return str(exc)
    context, problem = exc.context or "", exc.problem or ""
    mark = exc.problem_mark
    at_end = "end" in problem or (mark is not None and mark.index >= len(text.rstrip()))
    if at_end and "flow sequence" in context:
        return "a [ is not closed"
    if at_end and "flow mapping" in context:
        return "a { is not closed"
    if at_end and "quoted scalar" in context:
        return "a quoted string is not closed"
    if "alias" in context or "alias" in problem:
        return _ALIAS
    return f"{context}: {problem}" if context else problem


def _load(text: str) -> tuple[Any, dict[str, int], list[tuple[int, str, int]]]:
    """The value of ``text``, the (0-based) line of each top-level key, and the keys given
    twice; raises _Unreadable with a 0-based line."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        shared = _alias(node) if node is not None else None
        if shared is not None:
            raise _Unreadable(shared.line, _ALIAS)
        value = loader.construct_document(node) if node is not None else None
        value = _plain(value)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise _Unreadable(mark.line if mark else 0, _reason(exc, text)) from None
    except yaml.YAMLError as exc:
        raise _Unreadable(0, _reason(exc, text)) from None
    except (ValueError, TypeError) as exc:
        raise _Unreadable(0, str(exc)) from None
    finally:
        loader.dispose()
    key_lines: dict[str, int] = {}
    if isinstance(node, MappingNode):
        for key, _ in node.value:
            key_lines[str(key.value)] = key.start_mark.line
    return value, key_lines, loader.duplicates


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


_CONTINUES = ("-", "]", "}", ",")  # at the top indentation, these still belong to the field above
_KEY = re.compile(r"^[^\s\[\]{},#-][^:]*?:(?:\s+(.*))?$")


def read_block(rows: list[tuple[int, str]]) -> tuple[Any, dict[str, int], list[BlockProblem]]:
    """The value a metadata block holds (a mapping, unless it is something else altogether),
    the line of each top-level key, and what could not be read (each problem at its line,
    saying what was ignored).
    ``rows`` are (line number, text); the first row's leading blanks are not indentation (it is
    the text after ``<!--``)."""
    rows = [(n, t.rstrip()) for n, t in rows]
    if rows:
        rows[0] = (rows[0][0], rows[0][1].lstrip())
    content = [(n, t) for n, t in rows if t.strip() and not t.lstrip().startswith("#")]
    if not content:
        return {}, {}, []
    try:
        value, lines, twice = _load("\n".join(t for _, t in rows))
    except _Unreadable as whole:
        if len(content) == 1:  # `id: m1, importance: 1`: the pairs of a mapping without braces
            try:
                value, lines, twice = _load("{" + content[0][1].strip() + "}")
            except _Unreadable:
                pass
            else:
                if isinstance(value, dict) and len(value) > 1:
                    return value, {k: content[0][0] for k in value}, []
        return _by_field(rows, content, BlockProblem(rows[min(whole.line, len(rows) - 1)][0],
                                                     whole.reason))
    problems = [_twice(rows, 0, line, key, earlier) for line, key, earlier in twice]
    return value, {k: rows[i][0] for k, i in lines.items()}, problems


def _twice(rows: list[tuple[int, str]], offset: int, line: int, key: str,
           earlier: int) -> BlockProblem:
    return BlockProblem(rows[offset + line][0], f"{key} is given twice (also at line "
                                                f"{rows[offset + earlier][0]}); the later one "
                                                "is used")


def _by_field(rows: list[tuple[int, str]], content: list[tuple[int, str]],
              whole: BlockProblem) -> tuple[dict[str, Any], dict[str, int], list[BlockProblem]]:
    """Each top-level field read on its own (the block as a whole is not YAML)."""
    top = min(_indent(t) for _, t in content)
    starts = [i for i, (_, t) in enumerate(rows)
              if t.strip() and not t.lstrip().startswith("#") and _indent(t) <= top
              and not t.lstrip().startswith(_CONTINUES)]
    if not starts or starts[0] != rows.index(content[0]):
        starts.insert(0, rows.index(content[0]))
    value: dict[str, Any] = {}
    key_lines: dict[str, int] = {}
    problems: list[BlockProblem] = []
    for a, b in zip(starts, starts[1:] + [len(rows)]):
        part = rows[a:b]
        first = part[0][1].strip()
        try:
            got, lines, twice = _load("\n".join(t for _, t in part))
        except _Unreadable as exc:
            key = _KEY.match(first)
            what = f"the value {key[1]!r}" if key and key[1] else repr(first)
            last = max(i for i, (_, t) in enumerate(part) if t.strip())
            problems.append(BlockProblem(part[min(exc.line, last)][0],
                                         f"cannot read {what}: {exc.reason}; ignored"))
            continue
        if not isinstance(got, dict):
            problems.append(BlockProblem(part[0][0], f"cannot read {first!r} (not `key: value`); "
                                                     "ignored"))
            continue
        problems.extend(_twice(part, 0, line, key, earlier) for line, key, earlier in twice)
        for key, item in got.items():
            if key in value:
                problems.append(BlockProblem(part[lines.get(key, 0)][0],
                                             f"{key} is given twice (also at line "
                                             f"{key_lines[key]}); the later one is used"))
            value[key] = item
            key_lines[key] = part[lines.get(key, 0)][0]
    if not problems:  # every field reads alone, but not together: say so
        problems.append(BlockProblem(whole.line, f"cannot read the metadata as a whole "
                                                 f"({whole.message}); read field by field"))
    return value, key_lines, problems


__all__ = ["BlockProblem", "read_block"]
