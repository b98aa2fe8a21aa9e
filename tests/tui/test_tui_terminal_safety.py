"""The app never sends a memory's control characters to the terminal raw (an ESC in a memory
cleared the screen and retitled the terminal): the view it shows holds neutralised copies, the
vault keeps the exact text."""

from __future__ import annotations

from core import Vault
from tui.app.service import VaultService

EVIL = "evil \x1b]2;PWNED\x07 then \x1b[2J\x1b[31mred \x9b31m"


def _raw(text: str) -> bool:
    return any(c in text for c in ("\x1b", "\x07", "\x9b"))


def test_the_view_history_and_versions_show_no_raw_controls(vault_path):
    v = Vault.open(vault_path)
    m = v.add(EVIL, memory_id="evil1", tags=["x\x1b[5mblink"], entities=["E\x1b[0m"],
              source="s\x07")
    v.update("evil1", content=EVIL + " again")
    service = VaultService(vault_path)
    view = service.open()
    shown = view.rows["evil1"].memory
    texts = [shown.content, shown.gist or "", *shown.meta.tags, *shown.entities,
             shown.meta.source or ""]
    assert not any(_raw(t) for t in texts), texts
    assert "\\x1b]2;PWNED\\x07" in shown.content  # visible, not dropped
    info = service.history("evil1")
    assert not any(_raw(e.message) for e in info.entries)
    assert not _raw(service.version("evil1", info.entries[-1]).content)
    assert not any(_raw(n.memory.content) for n in service.lineage("evil1").nodes.values()
                   if n.memory is not None)
    # the vault itself is untouched: exact text on disk and in the core
    assert Vault.open(vault_path, readonly=True).get("evil1").content == EVIL + " again"
    assert m.content == EVIL
