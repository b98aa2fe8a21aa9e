"""Operations built on Vault: split, consolidate, provenance, revert (undo/redo), recall, and
the designated machine for maintenance."""
