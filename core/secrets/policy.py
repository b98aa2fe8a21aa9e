"""What happens to a secret on its way into the vault: the policy (``refuse``, ``redact`` or
``allow``), where it is set, and the refusal.

The policy in force is, first found: the one the writer asked for (the CLI's
``--allow-secret``; ``Vault(secrets=...)``), the environment (:data:`ENV`,
``MEMVAULT_SECRETS=refuse|redact|allow``), the vault's ``.meta.json`` key :data:`META_KEY`
(``memvault secrets-policy``), else :data:`DEFAULT`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..errors import ConfigError, VaultError
from .scanner import Finding

REFUSE, REDACT, ALLOW = "refuse", "redact", "allow"
POLICIES = (REFUSE, REDACT, ALLOW)
DEFAULT = REFUSE
ENV = "MEMVAULT_SECRETS"
META_KEY = "secrets"


def checked_policy(value: str, where: str) -> str:
    policy = value.strip().lower()
    if policy not in POLICIES:
        raise ConfigError(f"{where} must be one of {', '.join(POLICIES)}, not {value!r}")
    return policy


def policy_in_force(asked: str | None, meta: Mapping[str, Any] | None) -> str:
    """The policy for the next write (see the module docstring)."""
    if asked:
        return checked_policy(asked, "the secrets policy")
    from_env = os.environ.get(ENV, "").strip()
    if from_env:
        return checked_policy(from_env, ENV)
    in_meta = (meta or {}).get(META_KEY)
    if isinstance(in_meta, str) and in_meta.strip().lower() in POLICIES:
        return in_meta.strip().lower()
    return DEFAULT


def describe(findings: list[Finding], limit: int = 5) -> str:
    """``aws-key in content at offset 14; ...`` (kinds and places, never the secrets)."""
    shown = "; ".join(f"{f.kind} in {f.where()}" for f in findings[:limit])
    more = f"; and {len(findings) - limit} more" if len(findings) > limit else ""
    return shown + more


class SecretRefusedError(VaultError):
    """A write that would store something that looks like a secret, under the ``refuse``
    policy. Nothing was written. ``found`` maps each record (``memory 1a2b3c4d``, a file's
    path, ``the commit message``) to its findings."""

    def __init__(self, found: dict[str, list[Finding]]):
        self.found = found
        parts = [f"{name} ({describe(findings)})" for name, findings in found.items()]
        count = sum(len(f) for f in found.values())
        what = "what looks like a secret" if count == 1 else f"{count} things that look like secrets"
        super().__init__(
            f"refused: {'; '.join(parts[:5])}{' and more' if len(parts) > 5 else ''} "
            f"hold{'s' if len(parts) == 1 else ''} {what}; nothing was written. Take it out, "
            f"or write it anyway with --allow-secret ({ENV}=allow), or have it stored as "
            f"[REDACTED:kind] with {ENV}=redact (or `memvault secrets-policy redact`)")

    def to_json(self) -> list[dict[str, Any]]:
        return [{"record": name, "kind": f.kind, "field": f.field, "start": f.start,
                 "end": f.end} for name, findings in self.found.items() for f in findings]
