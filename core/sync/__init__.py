"""Sync between machines: fetch/merge/push (engine), installing the merge driver (install), the
sync-conflicts folder (conflicts) and the ``memvault-merge-driver`` program (merge_driver)."""
