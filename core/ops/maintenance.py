"""The maintenance rule of a vault synced between machines: gc and consolidation run on ONE
designated machine (``maintenance_machine`` in ``.meta.json``); the others only add and touch.
That removes the consolidation-or-gc-versus-modification conflicts from syncs altogether.

A machine's name is ``$MEMVAULT_MACHINE_ID``, else its host name. With no designated machine
every machine may run maintenance (a vault that is not synced needs no designation).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from typing import Any

from ..errors import VaultError

META_KEY = "maintenance_machine"
MACHINE_ENV = "MEMVAULT_MACHINE_ID"


class MaintenanceRefused(VaultError):
    """gc or consolidation asked for on a machine that is not the designated one."""


def machine_id() -> str:
    """This machine's name: ``$MEMVAULT_MACHINE_ID``, else the host name."""
    return (os.environ.get(MACHINE_ENV) or "").strip() or socket.gethostname()


def designated_machine(meta: Mapping[str, Any] | None) -> str | None:
    value = (meta or {}).get(META_KEY)
    return value.strip() or None if isinstance(value, str) else None


def may_maintain(meta: Mapping[str, Any] | None) -> bool:
    designated = designated_machine(meta)
    return designated is None or designated == machine_id()


def check_maintenance(meta: Mapping[str, Any] | None, operation: str, *,
                      force: bool = False) -> None:
    """Refuse ``operation`` (``gc``, ``consolidate``) unless this machine is the designated one,
    there is none, or ``force``."""
    if force or may_maintain(meta):
        return
    raise MaintenanceRefused(
        f"refused: {operation} runs on the maintenance machine {designated_machine(meta)!r} of "
        f"this vault, and this machine is {machine_id()!r}; run it there (then "
        f"`memvault sync`), or pass --force to run it here anyway (this machine's name comes "
        f"from ${MACHINE_ENV} or the host name; `memvault sync designate` changes the "
        f"designated machine)")
