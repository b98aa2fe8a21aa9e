"""The app's keys, from one source: the bindings themselves (each part's ``BINDINGS``), as
``MEMVAULT_KEYMAP`` remaps them. Help (``?``), the command palette's key hints and
``docs/app.md`` (:mod:`tui.app.keys_doc`) all read them here, so none of them can say a key the
app does not have.

A keymap works as Textual applies it (:meth:`textual.binding.BindingsMap.apply_keymap`): a
binding id it names gets the keys it gives, instead of its own; a binding it does not name
loses any key a remapped binding took (``memvault.archive=A`` takes ``A`` from "Mark the
group"), and :func:`actions` says which took it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from textual.app import App
from textual.binding import Binding
from textual.keys import format_key


@dataclass(frozen=True)
class KeyedAction:
    """One binding id of the parts asked about, with its keys now."""

    binding_id: str
    action: str
    description: str
    keys: tuple[str, ...]  # as bound now (after the keymap), Textual's key names
    default: tuple[str, ...]  # as the code binds them
    taken_by: tuple[str, ...] = ()  # binding ids the keymap gave a default key of this one

    @property
    def lost(self) -> bool:
        """Every key of it went to other actions: nothing runs it from the keyboard now."""
        return not self.keys


def bindings_of(part: type, *, own: bool = False) -> list[Binding]:
    """The bindings ``part`` (a screen, widget or app class) declares, its bases' first
    (``own``: only those memvault's classes declare, not Textual's)."""
    found: list[Binding] = []
    for cls in reversed(part.__mro__):
        if own and not cls.__module__.startswith("tui."):
            continue
        for item in cls.__dict__.get("BINDINGS", ()):
            binding = item if isinstance(item, Binding) else Binding(*item)
            if binding not in found:
                found.append(binding)
    return found


def _split(keys: str) -> tuple[str, ...]:
    return tuple(k.strip() for k in keys.split(",") if k.strip())


def actions(parts: Sequence[type], keymap: Mapping[str, str] | None = None) -> list[KeyedAction]:
    """Every binding with an id of ``parts`` (one entry an id, in the order declared), with its
    keys as ``keymap`` leaves them."""
    keymap = dict(keymap or {})
    by_id: dict[str, tuple[Binding, list[str]]] = {}
    for part in parts:
        for binding in bindings_of(part):
            if not binding.id:
                continue
            _, bound = by_id.setdefault(binding.id, (binding, []))
            for key in _split(binding.key):
                if key not in bound:
                    bound.append(key)
    remapped = {binding_id: _split(keymap[binding_id]) for binding_id in by_id
                if _split(keymap.get(binding_id, ""))}
    taker = {key: binding_id for binding_id, keys in remapped.items() for key in keys}
    result = []
    for binding_id, (binding, default) in by_id.items():
        keys: tuple[str, ...]
        taken: tuple[str, ...]
        if binding_id in remapped:
            keys, taken = remapped[binding_id], ()
        else:
            keys = tuple(k for k in default if k not in taker)
            taken = tuple(dict.fromkeys(taker[k] for k in default if k in taker))
        result.append(KeyedAction(binding_id, binding.action, binding.description, keys,
                                  tuple(default), taken))
    return result


def keys_text(keys: Iterable[str], display: Callable[[str], str] = format_key) -> str:
    """``ctrl+e f2`` (as ``display`` shows each key; the app passes its own)."""
    return " ".join(display(k) for k in keys)


def unknown_ids(parts: Sequence[type], keymap: Mapping[str, str]) -> list[str]:
    """Binding ids of ``keymap`` no part declares (a typo remaps nothing)."""
    known = {b.id for part in parts for b in bindings_of(part) if b.id}
    return [binding_id for binding_id in keymap if binding_id not in known]


def key_for(app: App[object], part: type, action: str) -> str:
    """The first key ``part`` (a screen or widget class) binds to ``action``, as the app's
    keymap (``MEMVAULT_KEYMAP``) has it now and as the app shows keys: what a sentence names
    when it tells a person which key to press. The action's name when nothing binds it."""
    keymap: Mapping[str, str] = getattr(app, "keymap", None) or {}
    for binding in bindings_of(part, own=True):
        if binding.action == action:
            key = keymap.get(binding.id or "", binding.key).split(",")[0].strip()
            return app.get_key_display(Binding(key, action))
    return action
