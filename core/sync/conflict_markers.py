"""Git-style conflict markers: both versions of a file written for a person to resolve, and
the test whether a file still holds them."""

from __future__ import annotations


def _with_newline(data: bytes) -> bytes:
    return data if data.endswith(b"\n") else data + b"\n"


def conflict_text(ancestor: bytes | None, ours: bytes, theirs: bytes, path: str,
                  reason: str) -> bytes:
    """Both versions between git-style conflict markers (the ancestor too, if any), for a person
    to resolve: keep one valid record, delete the rest."""
    label = " ".join(reason.split())
    out = [b"<<<<<<< ours: " + path.encode("utf-8", "surrogateescape") + b"\n",
           _with_newline(ours)]
    if ancestor:
        out += [b"||||||| ancestor\n", _with_newline(ancestor)]
    out += [b"=======\n", _with_newline(theirs),
            b">>>>>>> theirs: " + label.encode("utf-8", "surrogateescape") + b"\n"]
    return b"".join(out)


def has_conflict_markers(data: bytes) -> bool:
    return any(line.startswith((b"<<<<<<< ", b">>>>>>> ")) or line in (b"=======", b"=======\r")
               for line in data.splitlines())
