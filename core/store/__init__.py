"""The vault's own files and the records loaded from them: ids <-> paths and the rules for
hostile files (layout, files, shards, ids), the in-memory cache of loaded records (cache), and
quarantine of files that cannot be read. (:mod:`core.cortexgraph_storage` is something else:
the drop-in for CortexGraph's ``JSONLStorage``.)"""
