"""Records without the models, for a process that only reads (``memvault list``, ``show``,
``stats``, ``search``): importing pydantic and its models costs such a command more than all
else it does on a small vault.

After :func:`read_without_models`, the exact reading (:mod:`core.model.exact_records`) makes a
:class:`PlainMemory` or :class:`PlainRelation` where it made a model: the same fields and extra
keys as attributes (``status`` a :class:`~core.model.values.MemoryStatus`, ``meta`` a
:class:`PlainMeta`), and ``text``.

Anything else asked of one (``model_dump``, ``model_extra``, ``model_copy``...) is answered by
the model it stands for, made then (``model_construct`` of its fields, as the exact reading
makes it otherwise): pydantic is imported only by a command that needs it, and answers as
always. A file the exact reading does not take is validated into a model as always. Nothing
that writes opens a vault this way: the command line turns plain reading on for a command
that opens only read-only vaults, off before it opens one to write and when the command ends
(:mod:`tui.cli.common`), so a plain record is never written."""

from __future__ import annotations

from typing import Any, ClassVar

_reading_plainly = False


def read_without_models(plainly: bool = True) -> None:
    """From now on this process makes plain records where the exact reading made models (a
    command that only reads calls it before it opens the vault), or (``plainly`` False) models
    again: before anything opens a vault it may write, and when the command ends."""
    global _reading_plainly
    _reading_plainly = plainly


def reading_plainly() -> bool:
    """Whether :func:`read_without_models` was called."""
    return _reading_plainly


class PlainRecord:
    """A record's fields as attributes; what it lacks comes from the model it stands for."""

    _model_name: ClassVar[str] = ""
    __hash__ = None  # type: ignore[assignment]  # (a model is not hashable either)

    def __init__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)

    def fields(self) -> dict[str, Any]:
        """The record's fields and extra keys, as the model is made from them."""
        return dict(self.__dict__)

    def as_model(self) -> Any:
        """The model this record stands for (pydantic imported, and the model's class built,
        on first use): its fields and extra keys, all of them given."""
        from . import records

        model = getattr(records, self._model_name)
        fields = self.fields()
        return model.model_construct(set(fields), **fields)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # (copy, pickle and the like look for these: not a model's)
            raise AttributeError(name)
        return getattr(self.as_model(), name)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.__dict__!r})"


class PlainMeta(PlainRecord):
    """A memory's ``meta`` (:class:`~core.model.records.MemoryMetadata`)."""

    _model_name = "MemoryMetadata"


class PlainMemory(PlainRecord):
    """A :class:`~core.model.records.Memory` read without the model."""

    _model_name = "Memory"

    def fields(self) -> dict[str, Any]:
        fields = dict(self.__dict__)
        meta = fields.get("meta")
        if isinstance(meta, PlainMeta):
            fields["meta"] = meta.as_model()
        return fields

    @property
    def text(self) -> str:
        """What a reader sees first: the gist, or the content when there is none."""
        gist: str | None = self.__dict__.get("gist")
        content: str = self.__dict__["content"]
        return gist or content


class PlainRelation(PlainRecord):
    """A :class:`~core.model.records.Relation` read without the model."""

    _model_name = "Relation"
