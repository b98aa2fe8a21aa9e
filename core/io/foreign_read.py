"""Another program's files read safely: the one layer every importer of a foreign source
(``import --from mcp-memory`` / ``basic-memory`` / ``mem0``, ``migrate``, ``import-markdown``)
reads through, so a hostile or broken file costs a clear error, never a hang, a traceback or
gigabytes of memory:

- :func:`open_source` / :func:`read_source`: a regular file only, opened with ``O_NOFOLLOW``
  (a symbolic link is refused, never followed) and ``O_NONBLOCK`` (a fifo or a device named
  ``*.md`` cannot hang the reader), checked with ``fstat`` on what was opened;
  :func:`read_source` also never reads more than a limit;
- :func:`shown_name` / :func:`check_source_path`: a file name that is not UTF-8 text is named
  with its odd bytes escaped (``caf\\xe9.md``), and refused: its name could go into no record;
- :func:`load_json`: ``json.loads`` whose nesting is bounded (:data:`MAX_DEPTH`): a value nested
  50,000 deep is :class:`TooDeepError`, not a RecursionError;
- :func:`load_yaml`: YAML's safe constructor over a composed node tree that is checked first:
  no alias (``*name``; each would be one more copy of what it names: seven lines of aliases
  expand to gigabytes, and an alias to itself never ends) and no nesting deeper than
  :data:`MAX_DEPTH`. Composing is linear in the text (an alias is a reference there, not a
  copy), so the check costs what the text costs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

import yaml

from ..errors import VaultError
from ..store.files import RefusedFileError, open_regular

#: The deepest nesting of lists and mappings a foreign value may have: mem0's metadata, a
#: note's front matter are a few levels deep; 50,000 levels would overflow every recursive
#: reader after the parser (the record check, the JSON writer, pydantic).
MAX_DEPTH = 100
ALIAS_REFUSED = "an alias (*name) is not read (each would be one more copy of what it names)"

SafeYamlLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's when built in


class SourceFileError(VaultError):
    """A file an import will not read (not a regular file, a link, unreadable); the message
    names the file and says why, ``why`` says only why."""

    def __init__(self, path: str | os.PathLike[str], why: str) -> None:
        super().__init__(f"refused: {shown_name(path)} {why}; nothing was written")
        self.why = why


class TooDeepError(ValueError):
    """A JSON or YAML value nested deeper than :data:`MAX_DEPTH`."""

    def __init__(self, line: int = 0) -> None:
        super().__init__(f"nested deeper than {MAX_DEPTH} levels")
        self.line = line  # 0-based, for YAML; 0 for JSON


class YamlAliasError(ValueError):
    """A YAML text holding an alias (``*name``); ``line`` is 0-based."""

    def __init__(self, line: int) -> None:
        super().__init__(ALIAS_REFUSED)
        self.line = line


def shown_name(path: str | os.PathLike[str]) -> str:
    """``path`` as text a person can read and a terminal can print: bytes that are not UTF-8
    (a name made on a latin-1 system) shown escaped, ``caf\\xe9.md``."""
    text = os.fspath(path)
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def utf8_name(path: str | os.PathLike[str]) -> bool:
    """``path`` is UTF-8 text (it can go into a record, a commit, ``.meta.json``)."""
    try:
        os.fspath(path).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_source_path(path: Path) -> None:
    """SourceFileError unless ``path`` (a file or folder to import) is named in UTF-8 text."""
    if not utf8_name(path):
        raise SourceFileError(path, "is not named in UTF-8 text (rename it, then import it "
                              "again)")


def open_source(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for reading in binary, when it is a regular file: never through a
    symbolic link, never blocking on a fifo, never a device or a folder. SourceFileError
    (naming the file) otherwise; FileNotFoundError when it is absent."""
    try:
        fd, _ = open_regular(path, link="is a symbolic link (give the file it points at)",
                             other="is not a regular file (a fifo, a device or a folder)")
    except RefusedFileError as exc:
        raise SourceFileError(path, exc.reason) from None
    try:
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def open_file_to_import(path: Path) -> BinaryIO:
    """The one file an import reads (``--from mcp-memory FILE``, ``--from mem0 FILE``), opened
    by :func:`open_source`; VaultError "no file" when it is absent."""
    check_source_path(path)
    try:
        return open_source(path)
    except FileNotFoundError:
        raise VaultError(f"no file {shown_name(path)}") from None


def read_source(path: str | os.PathLike[str], limit: int) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file (:func:`open_source`) and its status; SourceFileError when
    it holds more than ``limit`` bytes (nothing past the limit is read)."""
    with open_source(path) as f:
        st = os.fstat(f.fileno())
        chunks, total = [], 0
        want = min(st.st_size, limit) + 1  # (never a buffer of ``limit`` for a small file)
        while total <= limit and (chunk := f.read(min(want, limit + 1 - total))):
            chunks.append(chunk)
            total += len(chunk)
            want = 1 << 20  # it grew since fstat
    data = b"".join(chunks)
    if len(data) > limit:
        raise SourceFileError(path, f"is larger than {limit:,} bytes")
    return data, st


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """``value`` (parsed JSON or YAML) nests lists and mappings deeper than ``limit``; walked
    without recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        here, depth = stack.pop()
        if isinstance(here, dict):
            children: Any = here.values()
        elif isinstance(here, list):
            children = here
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def load_json(text: str | bytes, parse_constant: Callable[[str], Any] | None = None) -> Any:
    """``json.loads(text)`` with its nesting bounded: ValueError when it is no JSON (as
    ``json.loads``), TooDeepError (a ValueError) when it nests deeper than :data:`MAX_DEPTH`."""
    try:
        value = json.loads(text, parse_constant=parse_constant)
    except RecursionError:
        raise TooDeepError() from None
    if too_deep(value):
        raise TooDeepError()
    return value


def _check_nodes(node: yaml.Node) -> None:
    """YamlAliasError at the first node reached twice (an alias), TooDeepError past
    :data:`MAX_DEPTH`; iterative, each node visited once."""
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, int]] = [(node, 1)]
    while stack:
        here, depth = stack.pop()
        if id(here) in seen:
            raise YamlAliasError(here.start_mark.line)
        seen.add(id(here))
        if isinstance(here, yaml.MappingNode):
            children = [n for pair in here.value for n in pair]
        elif isinstance(here, yaml.SequenceNode):
            children = list(here.value)
        else:
            continue
        if depth > MAX_DEPTH:
            raise TooDeepError(here.start_mark.line)
        stack.extend((child, depth + 1) for child in children)


def load_yaml(text: str) -> Any:
    """``yaml.safe_load(text)`` without aliases and with its nesting bounded (see the module
    doc): yaml.YAMLError when it is no YAML, YamlAliasError or TooDeepError (ValueErrors with
    the 0-based ``line``) when it is refused."""
    loader = SafeYamlLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_nodes(node)
        return loader.construct_document(node)
    except RecursionError:  # (the pure-Python composer recurses; libyaml stops at 1,000)
        raise TooDeepError() from None
    finally:
        loader.dispose()


__all__ = ["MAX_DEPTH", "SourceFileError", "TooDeepError", "YamlAliasError",
           "check_source_path", "load_json", "load_yaml", "open_file_to_import", "open_source", "read_source",
           "shown_name", "too_deep", "utf8_name"]
