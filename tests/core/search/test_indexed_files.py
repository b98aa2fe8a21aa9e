"""The derived index's ``files`` rows (``core.search.indexed_files``) keep a record's bytes only
when they made a valid record as the row was written, and an open holds those bytes unparsed:
rows written for other record models must not be read as valid, so a change to the models
bumps the index's schema version (an index of another version is rebuilt)."""

from __future__ import annotations

import hashlib
import json

from core import Memory, Relation
from core.search.index import SCHEMA_VERSION

#: The record models the current SCHEMA_VERSION's rows were validated with.
MODELS_OF_THIS_SCHEMA = (8, "7c5e54a65d1cf497")  # (8: the index holds word forms, same models)


def test_the_record_models_are_those_the_index_schema_was_written_for():
    schemas = json.dumps([Memory.model_json_schema(), Relation.model_json_schema()],
                         sort_keys=True)
    digest = hashlib.sha256(schemas.encode()).hexdigest()[:16]
    assert (SCHEMA_VERSION, digest) == MODELS_OF_THIS_SCHEMA, (
        "the record models changed: rows of the derived index validated with the old models "
        "would be held unparsed as valid; bump SCHEMA_VERSION in core/search/index.py and "
        "write the new version and digest here")
