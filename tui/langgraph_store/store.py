""":class:`VaultStore`: LangGraph's ``BaseStore`` on a memvault vault. A batch is checked whole
first (:mod:`.checks`: a bad namespace, key or value refuses it, nothing written), its reads are
answered from the vault as it was before the batch (as LangGraph's in-memory store does), and
its puts are ONE commit (:mod:`.writes`) whose trailer ``Memvault-Via: langgraph`` puts it in
the review inbox; the write path checks it for secrets like any other."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore, GetOp, ListNamespacesOp, Op, PutOp, Result, SearchOp

from core import Vault
from core.search import Searcher

from . import reads
from .checks import check_ops
from .writes import apply_puts

#: The ``Memvault-Via`` trailer of the store's commits, unless the caller names itself.
VIA = "langgraph"
#: The ``Memvault-Tool`` trailer: every write is a batch of puts.
TOOL = "put"


class VaultStore(BaseStore):
    """LangGraph's store on the vault ``vault`` (a :class:`core.Vault`, or the path of one,
    opened here and closed by :meth:`close`; made when missing, as ``Vault.open`` does). Its
    commits carry ``Memvault-Via: <via>`` (``langgraph``, or ``langgraph/<your agent>``).
    ``secrets``: the secrets policy of its writes (None: the vault's). Thread-safe: one batch
    at a time."""

    def __init__(self, vault: Vault | Path | str, *, via: str = VIA,
                 secrets: str | None = None) -> None:
        self._owned = not isinstance(vault, Vault)
        opened = Vault.open(vault) if not isinstance(vault, Vault) else vault
        self.vault = opened.acting_for(via=via, tool=TOOL, secrets=secrets)
        self._lock = threading.Lock()
        self._searcher: Searcher | None = None

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Every op's result in order: an ``Item`` or None for a get, a list of ``SearchItem``
        for a search, of namespaces for a list, None for a put."""
        ops = list(ops)
        check_ops(ops)
        with self._lock:
            vault = self.vault
            vault.refresh()  # (another process's commits: answer from what HEAD says now)
            results: list[Result] = []
            puts: list[PutOp] = []
            for op in ops:
                results.append(self._read(op))
                if isinstance(op, PutOp):
                    puts.append(op)
            apply_puts(vault, puts)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` in a worker thread (git and the files are blocking work)."""
        return await asyncio.to_thread(self.batch, list(ops))

    def _read(self, op: Op) -> Any:
        vault = self.vault
        if isinstance(op, GetOp):
            return reads.get(vault, tuple(op.namespace), op.key)
        if isinstance(op, SearchOp):
            return reads.search(vault, self._searcher_now(), op)
        if isinstance(op, ListNamespacesOp):
            return reads.list_namespaces(vault, op)
        return None

    def _searcher_now(self) -> Searcher:
        """The ranked search's searcher, made at the first search with a query and kept (its
        index stays open)."""
        if self._searcher is None:
            self._searcher = Searcher(self.vault)
        return self._searcher

    def close(self) -> None:
        """Close the search index, and the vault when the store opened it (every put is
        committed already)."""
        with self._lock:
            if self._searcher is not None:
                self._searcher.close()
                self._searcher = None
            if self._owned:
                self.vault.close()

    def __enter__(self) -> VaultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
