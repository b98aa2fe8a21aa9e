"""The server's tools, resources and prompts, registered once the handshake is over rather than
before it: their modules' imports and the SDK's argument models of every tool (a pydantic model
and a JSON schema each) were most of memvault's own start-up on top of the SDK's. ``initialize``
needs none of them (its capabilities come from the SDK's handlers, there from the start).

:meth:`Surface.ensure` registers them, once, from whichever comes first: the thread the server
starts when the client says it is initialized (beside the vault's opening), or the first request
that lists or uses them (:meth:`Surface.ready_for`, which waits for that thread's work rather
than doing it twice).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import anyio.to_thread

if TYPE_CHECKING:
    from .access import VaultAccess
    from .metrics import ToolTimings

#: methods answered without the tools, resources and prompts
WITHOUT = frozenset({"initialize", "ping", "notifications/initialized",
                     "notifications/cancelled", "logging/setLevel"})


class Surface:
    """What the server offers, registered on ``server`` at the first :meth:`ensure`."""

    def __init__(self, server: Any, access: VaultAccess, timings: ToolTimings):
        self.server = server
        self.access = access
        self.timings = timings
        self._lock = threading.Lock()
        self.ready = False

    def ensure(self) -> None:
        """Register the tools, resources and prompts (once; from any thread)."""
        if self.ready:
            return
        with self._lock:
            if self.ready:
                return
            from . import (
                prompts,
                resources,
                tools_conversation,
                tools_lifecycle,
                tools_read,
                tools_server,
                tools_unified,
                tools_write,
            )

            server, access = self.server, self.access
            tools_read.register(server, access)
            tools_unified.register(server, access)
            tools_write.register(server, access)
            tools_lifecycle.register(server, access)
            tools_conversation.register(server, access)
            tools_server.register(server, access, self.timings)
            resources.register(server, access)
            prompts.register(server, access)
            self.ready = True

    async def ready_for(self, method: str) -> None:
        """Before a request of ``method`` is handled: wait for the registration it needs (the
        error boundary calls this first, so a failure here is answered like any other)."""
        if not self.ready and method not in WITHOUT:
            await anyio.to_thread.run_sync(self.ensure)
