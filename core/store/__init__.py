"""Files on disk: ids <-> paths and the rules for hostile files (layout), the in-memory cache of
loaded records (cache), and quarantine of files that cannot be read."""
