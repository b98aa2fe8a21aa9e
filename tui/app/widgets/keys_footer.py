"""The main screen's footer: Textual's, composed again only when the keys it shows change.

Textual's footer composes its keys anew each time the screen says its bindings were updated: a
key widget per binding mounted and styled (tens of milliseconds each time on a big screen),
while the vault opens several times in a row with the very same keys (the focus moving to the
tree, the first look and the open vault each refreshing the bindings)."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer


def shown_keys(screen: Screen[Any]) -> tuple[Any, ...]:
    """What the footer composes from ``screen``'s bindings: each key, its display, what it
    says and does, its group, whether it shows and whether it is enabled."""
    display = screen.app.get_key_display
    return tuple((binding.key, display(binding), binding.description, binding.action,
                  binding.show, binding.group, enabled, tooltip)
                 for _node, binding, enabled, tooltip in screen.active_bindings.values())


class KeysFooter(Footer):
    """A :class:`~textual.widgets.Footer` that composes its keys again only when what it would
    show differs from what it shows (:func:`shown_keys`)."""

    def __init__(self, *, compact: bool = False, id: str | None = None) -> None:
        super().__init__(compact=compact, id=id)
        #: the keys the footer was last composed from (None: not yet)
        self.composed_from: tuple[Any, ...] | None = None

    def bindings_changed(self, screen: Screen[Any]) -> None:
        composing = screen.app.app_focus and self.is_attached and screen is self.screen
        if composing:  # (as Textual's: only then does it compose again)
            keys = shown_keys(screen)
            if keys == self.composed_from:
                return
            self.composed_from = keys
        super().bindings_changed(screen)
