"""The bytes of the files an open reads, kept for the open index (vault path -> bytes): every
file's (a plain ``dict``), or, with :class:`KeptWhileSmall`, only while they are few."""

from __future__ import annotations


class KeptWhileSmall(dict[str, bytes]):
    """Keeps the bytes of up to ``limit`` files; at the next it lets go of all of them and keeps
    nothing more (:attr:`full`): the first search of a vault that big hands the search index's
    first build to a builder, which writes the open index itself, so keeping 100k files' bytes
    would only cost the search (a tenth of its open at 100k). Set its items one by one (as the
    loader does): ``update`` is a dict's own."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit
        self.full = False

    def __setitem__(self, key: str, value: bytes) -> None:
        if self.full:
            return
        if len(self) >= self.limit:
            self.full = True
            self.clear()
            return
        super().__setitem__(key, value)
