"""core's change set, which :meth:`core.Vault.apply` commits as one commit: ``core.vault.Plan``
(named ``ChangeSet`` before the vault became a package; the fallback goes when both are merged)."""

from __future__ import annotations

try:
    from core.vault import Plan
except ImportError:
    from core.vault import ChangeSet as Plan  # type: ignore[attr-defined,no-redef]

__all__ = ["Plan"]
