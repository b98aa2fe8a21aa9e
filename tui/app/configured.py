"""What the app takes from its settings file (``keymap``, ``decay``) and from the environment,
and which wins: a variable that is set (``MEMVAULT_KEYMAP`` for the binding ids it names, each
``CORTEXGRAPH_*`` for its setting) overrides the file. Also the checks a value typed on the
settings screen goes through: a bad one is refused, saying why, and nothing is written.

Pure Python (no textual)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import fields
from typing import Any

KEYMAP_ENV = "MEMVAULT_KEYMAP"


def _decay_kinds() -> dict[str, type]:
    """DecayConfig's fields and the type of each (what a value typed for it is read as)."""
    from core.model.config import DecayConfig

    return {f.name: type(getattr(DecayConfig(), f.name)) for f in fields(DecayConfig)}


def env_var(name: str) -> str:
    """The ``CORTEXGRAPH_*`` variable of the decay setting ``name``."""
    from core.model.config import ENV_VARS

    return ENV_VARS[name]


def decay_problem(values: Mapping[str, Any]) -> str | None:
    """What is wrong with the decay settings ``values`` (a settings file's), or None."""
    from core import ConfigError
    from core.model.config import DecayConfig

    kinds = _decay_kinds()
    for name, value in values.items():
        kind = kinds.get(name)
        if kind is None:
            return f"{name} is no decay setting"
        if kind is str and not isinstance(value, str):
            return f"{name} must be text"
        if kind in (int, float) and (isinstance(value, bool) or not isinstance(value, (int, float))
                                     or (kind is int and not isinstance(value, int))):
            return f"{name} must be {'a whole number' if kind is int else 'a number'}"
    try:
        DecayConfig(**values)
    except (ConfigError, TypeError) as exc:
        return str(exc)
    return None


def overridden(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The decay settings the environment sets: name -> its variable."""
    from core.model.config import ENV_VARS

    env = os.environ if environ is None else environ
    return {name: var for name, var in ENV_VARS.items() if env.get(var, "").strip()}


def decay_config(saved: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> Any:
    """The :class:`~core.model.config.DecayConfig` in effect: the file's values, each one the
    environment sets taken from the environment instead (a bad variable raises ConfigError,
    as the environment alone did)."""
    from core.model.config import DecayConfig

    from_env = DecayConfig.from_env(environ)
    values = dict(saved)
    for name in overridden(environ):
        values[name] = getattr(from_env, name)
    return DecayConfig(**values)


def typed_decay(name: str, text: str, saved: Mapping[str, Any]) -> dict[str, Any]:
    """The file's decay settings with ``name`` set to what ``text`` says (empty text: back to
    the default); ValueError with the reason when the value is refused."""
    kind = _decay_kinds()[name]
    text = text.strip()
    new = {k: v for k, v in saved.items() if k != name}
    if text:
        try:
            new[name] = kind(text)
        except ValueError:
            raise ValueError(f"{text!r} is not {'a whole number' if kind is int else 'a number'}"
                             ) from None
    problem = decay_problem(new)
    if problem is not None:
        raise ValueError(problem.replace(env_var(name), name.replace("_", " ")))
    return new


def parse_keymap(text: str | None) -> dict[str, str]:
    """``memvault.archive=A;memvault.delete=D,ctrl+d`` -> {binding id: keys} (pieces without
    an ``=`` are left out: :func:`typed_keymap` refuses them)."""
    keymap: dict[str, str] = {}
    for part in (text or "").split(";"):
        binding_id, sep, keys = part.partition("=")
        if sep and binding_id.strip() and keys.strip():
            keymap[binding_id.strip()] = keys.strip()
    return keymap


def keymap_text(keymap: Mapping[str, str]) -> str:
    """A keymap as ``MEMVAULT_KEYMAP`` writes it."""
    return ";".join(f"{binding_id}={keys}" for binding_id, keys in keymap.items())


def typed_keymap(text: str, known: Iterable[str]) -> dict[str, str]:
    """The keymap ``text`` says (as ``MEMVAULT_KEYMAP`` is written); ValueError naming a piece
    that is not ``id=keys`` or a binding id no screen has."""
    known = set(known)
    for part in text.split(";"):
        if not part.strip():
            continue
        binding_id, sep, keys = part.partition("=")
        if not sep or not binding_id.strip() or not keys.strip():
            raise ValueError(f"{part.strip()!r} is not binding-id=keys "
                             "(memvault.archive=A;memvault.delete=D,ctrl+d)")
        if binding_id.strip() not in known:
            raise ValueError(f"no screen has the binding id {binding_id.strip()!r} (? lists "
                             "each key's id)")
    return parse_keymap(text)


def keymap_in_effect(saved: Mapping[str, str], environ: Mapping[str, str] | None = None
                     ) -> dict[str, str]:
    """The file's keymap, each binding id ``MEMVAULT_KEYMAP`` names taken from it instead."""
    env = os.environ if environ is None else environ
    return {**saved, **parse_keymap(env.get(KEYMAP_ENV))}
