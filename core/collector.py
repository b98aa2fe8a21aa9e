"""Python's cyclic garbage collector paused while a bulk of long-lived objects is made.

Reading a big vault's summaries from the derived index, and a view's rows from them, makes
hundreds of thousands of objects that all live on and next to no garbage: the collector,
triggered again and again by those allocations, only rescans them.
Objects are still freed by reference counting while it is paused; what it would have found
is found at its next run, once it is enabled again. (The open's load pauses it the same way:
:mod:`core.vault.loading`.)"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off inside the block, then as it was (a caller that finds it off,
    as within another pause, leaves it off)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
