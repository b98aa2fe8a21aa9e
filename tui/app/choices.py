"""The tree's groupings and sorts, by name: what the settings file may hold and the tree's keys
cycle through (their meaning is :mod:`.grouping`'s). Apart so that reading the settings, on the
app's first path, imports nothing of the vault."""

MODES = ("status_tag", "tag", "band", "lineage", "duplicates")
SORTS = ("score", "last_used", "created")
NO_TAG = "(no tags)"  # the group of the memories without tags
