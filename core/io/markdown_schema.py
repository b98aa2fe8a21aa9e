"""The memory entry schema's rules for a markdown entry's metadata, in one pydantic model.

:class:`EntryMeta` holds every rule for the fields of the memory entry schema. A field that breaks
a rule (an importance that is not a number from 0 to 1, a status outside the schema, entities
that are not words...) fails validation; :func:`read_meta` reports it and validates again
without it, so the entry is imported without that field. A field the schema allows to be odd
(an unknown tier, an unknown episode outcome or link type, a link weight outside 0-1) passes
with a warning said through the validation context; a link that cannot be one (no ``to``) is
left out of the list with a warning. Every message names the field's line.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any

from pydantic import (BaseModel, ConfigDict, PrivateAttr, ValidationError, ValidationInfo,
                      field_validator, model_validator)
from pydantic_core import PydanticCustomError

from ..model.records import MemoryStatus

TIERS = {"ultra-short": 0.5, "short": 0.5, "medium": 0.6, "long": 0.8}  # default importance
OUTCOMES = frozenset({"success", "failure", "decision", "observation", "correction"})
LINK_TYPES = frozenset({"related_to", "depends_on", "part_of", "caused_by", "similar_to",
                        "contradicts", "supersedes", "alternative_to"})
STATUSES = {"active": MemoryStatus.ACTIVE, "archived": MemoryStatus.ARCHIVED,
            "superseded": MemoryStatus.SUPERSEDED}
#: Fields turned into memory fields (every other field goes to meta.extra as given).
MAPPED_FIELDS = frozenset({"id", "entities", "links", "tags", "status", "superseded_by", "summary"})



def _bad(message: str) -> PydanticCustomError:
    """The field is ignored, saying ``message``."""
    return PydanticCustomError("markdown", message)


def _context(info: ValidationInfo) -> dict[str, Any]:
    """What :func:`read_meta` validates with: ``tz``, ``long_term`` and the ``warnings`` list."""
    if not isinstance(info.context, dict):
        raise TypeError("a markdown entry's metadata is validated through read_meta")
    return info.context


def _warn(info: ValidationInfo, key: str, message: str) -> None:
    """The value is kept (or read as said), with ``message`` reported at ``key``'s line."""
    _context(info)["warnings"].append((key, message))


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _epoch(value: Any, info: ValidationInfo, key: str, name: str) -> int | None:
    if value is None:
        return None
    if _number(value):
        return int(value)
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip())
            if moment.tzinfo is None:
                tz: tzinfo | None = _context(info).get("tz")
                moment = moment.replace(tzinfo=tz) if tz is not None else moment.astimezone()
            return int(moment.timestamp())
        except (ValueError, OverflowError, OSError):
            pass
    _warn(info, key, f"{name} {value!r} is not a time; ignored")
    return None


class Link(BaseModel):
    """One of ``links``: ``{to: id, type: related_to, weight: 1.0}`` or just the id."""

    to: str
    type: str = "related_to"
    weight: float = 1.0

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, link: Any) -> Any:
        if isinstance(link, str):
            link = {"to": link}
        if not isinstance(link, dict):
            raise _bad(f"a link {link!r} is not a mapping; ignored")
        to = link.get("to")
        if not isinstance(to, str) or not to.strip():
            raise _bad(f"a link without `to` ({link!r}); ignored")
        return {k: v for k, v in {**link, "to": to.strip()}.items() if k in cls.model_fields}

    @field_validator("type", mode="before")
    @classmethod
    def _type(cls, kind: Any, info: ValidationInfo) -> str:
        if not isinstance(kind, str) or not kind.strip():
            _warn(info, "links", f"a link to {info.data['to']} has no usable type; "
                                 "read as related_to")
            return "related_to"
        if kind not in LINK_TYPES:
            _warn(info, "links", f"link type {kind!r} is not one of the schema's; kept as it is")
        return kind.strip()

    @field_validator("weight", mode="before")
    @classmethod
    def _weight(cls, weight: Any, info: ValidationInfo) -> float:
        if weight is None:
            return 1.0
        if not _number(weight):
            _warn(info, "links", f"a link weight {weight!r} is not a number; read as 1.0")
            return 1.0
        if not 0 <= weight <= 1:
            clamped = min(1.0, max(0.0, float(weight)))
            _warn(info, "links", f"a link weight {weight} is outside 0-1; read as {clamped:g}")
            return clamped
        return float(weight)


class Retrieval(BaseModel):
    """What memvault reads of ``retrieval`` (which is kept whole in meta.extra)."""

    model_config = ConfigDict(extra="allow")

    access_count: int | None = None
    last_accessed: int | None = None  # epoch seconds
    created_at: int | None = None

    @field_validator("access_count", mode="before")
    @classmethod
    def _count(cls, count: Any, info: ValidationInfo) -> int | None:
        if count is None or (isinstance(count, int) and not isinstance(count, bool)
                             and count >= 0):
            return count
        _warn(info, "retrieval", f"retrieval.access_count {count!r} is not a count; ignored")
        return None

    @field_validator("last_accessed", "created_at", mode="before")
    @classmethod
    def _time(cls, value: Any, info: ValidationInfo) -> int | None:
        return _epoch(value, info, "retrieval", f"retrieval.{info.field_name}")


class EntryMeta(BaseModel):
    """The metadata comment of one entry, as the memory entry schema defines it. Validate with
    :func:`read_meta` (the context carries ``tz``, ``long_term`` and the warnings)."""

    model_config = ConfigDict(extra="allow")

    id: str | None = None
    importance: float | None = None
    tier: Any = None
    entities: list[str] = []
    tags: list[str] = []
    status: MemoryStatus | None = None
    superseded_by: str | None = None
    summary: str | None = None  # None when absent or not text (then kept in meta.extra)
    retrieval: Retrieval | None = None
    episode: Any = None
    links: list[Link] = []
    _created: int | None = PrivateAttr(default=None)  # a stated creation time

    @field_validator("id", mode="before")
    @classmethod
    def _id(cls, value: Any) -> str | None:
        if _number(value):
            value = str(value)
        if value is not None and not isinstance(value, str):
            raise _bad("id is not a string; a new id is made")
        return value.strip() or None if value is not None else None

    @field_validator("importance", mode="before")
    @classmethod
    def _importance(cls, value: Any) -> Any:
        if value is not None and (not _number(value) or not 0 <= value <= 1):
            raise _bad(f"importance {value!r} is not a number from 0 to 1; ignored")
        return value

    @field_validator("tier", mode="before")
    @classmethod
    def _tier(cls, tier: Any, info: ValidationInfo) -> Any:
        if tier is not None and (not isinstance(tier, str) or tier not in TIERS):
            _warn(info, "tier", f"tier {tier!r} is not one of {', '.join(TIERS)}; "
                                "kept as it is")
        return tier

    @field_validator("entities", "tags", mode="before")
    @classmethod
    def _words(cls, value: Any, info: ValidationInfo) -> list[str]:
        if value is None:
            return []
        if _number(value) or isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(_number(v) or isinstance(v, str)
                                                  for v in value):
            raise _bad(f"{info.field_name} is not a list of words; ignored")
        return [str(v) for v in value if str(v).strip()]

    @field_validator("status", mode="before")
    @classmethod
    def _status(cls, value: Any) -> MemoryStatus | None:
        if value is None:
            return None
        if isinstance(value, str) and value in STATUSES:
            return STATUSES[value]
        raise _bad(f"status {value!r} is not one of {', '.join(STATUSES)}; ignored")

    @field_validator("superseded_by", mode="before")
    @classmethod
    def _superseded_by(cls, value: Any) -> str | None:
        if value is None:
            return None
        if isinstance(value, str) and value.strip():
            return value.strip()
        raise _bad("superseded_by is not an id; ignored")

    @field_validator("summary", mode="before")
    @classmethod
    def _summary(cls, value: Any, info: ValidationInfo) -> str | None:
        if value is None or (isinstance(value, str) and value.strip()):
            return value.strip() if value is not None else None
        _warn(info, "summary", "summary is not text; kept in meta.extra")
        return None

    @field_validator("retrieval", mode="before")
    @classmethod
    def _retrieval(cls, value: Any) -> Any:
        return value if isinstance(value, dict) else None  # kept in meta.extra either way

    @field_validator("episode", mode="before")
    @classmethod
    def _episode(cls, episode: Any, info: ValidationInfo) -> Any:
        if episode is None:
            return None
        if not isinstance(episode, dict):
            _warn(info, "episode", "episode is not a mapping; kept as it is")
        elif episode.get("outcome") is not None and episode.get("outcome") not in OUTCOMES:
            _warn(info, "episode", f"episode outcome {episode.get('outcome')!r} is not one of "
                                   f"{', '.join(sorted(OUTCOMES))}; kept as it is")
        return episode

    @field_validator("links", mode="before")
    @classmethod
    def _links(cls, links: Any, info: ValidationInfo) -> list[Link]:
        if links is None:
            return []
        if isinstance(links, (dict, str)):
            links = [links]
        if not isinstance(links, list):
            raise _bad("links is not a list; ignored")
        kept = []
        for link in links:
            try:
                kept.append(Link.model_validate(link, context=info.context))
            except ValidationError as exc:
                for error in exc.errors():
                    _warn(info, "links", error["msg"])
        return kept

    @model_validator(mode="after")
    def _created_at(self, info: ValidationInfo) -> EntryMeta:
        """A ``MEMORY.md`` section's creation time: ``retrieval.created_at``, else
        ``episode.timestamp``."""
        self._created = self.retrieval.created_at if self.retrieval else None
        if self._created is None and _context(info)["long_term"] and isinstance(self.episode,
                                                                                dict):
            self._created = _epoch(self.episode.get("timestamp"), info, "episode",
                                   "episode.timestamp")
        return self

    @property
    def created_at(self) -> int | None:
        return self._created


def read_meta(fields: dict[str, Any], *, long_term: bool, tz: tzinfo | None,
              ) -> tuple[EntryMeta, set[str], list[tuple[str, str]]]:
    """The validated metadata, the fields ignored, and (field, message) for each problem."""
    data, ignored, said = dict(fields), set(), []
    while True:  # each round leaves out the fields that failed: at most two rounds in practice
        context: dict[str, Any] = {"tz": tz, "long_term": long_term, "warnings": []}
        try:
            meta = EntryMeta.model_validate(data, context=context)
        except ValidationError as exc:
            if not data:
                raise
            # field -> (the error's type, its message)
            failed = {str(e["loc"][0]) if e["loc"] else "": (e["type"], e["msg"])
                      for e in exc.errors()}
            if not data.keys() & failed.keys():  # not one field's fault: all left out
                failed = dict.fromkeys(data, ("markdown", str(exc)))
            for key, (kind, message) in failed.items():
                if key in data:
                    said.append((key, message if kind == "markdown"
                                 else f"{key}: {message}; ignored"))
                    ignored.add(key)
                    del data[key]
            continue
        return meta, ignored, said + context["warnings"]
