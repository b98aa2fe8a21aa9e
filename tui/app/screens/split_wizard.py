"""The split wizard: decompose a composite memory into atomic ones, step by step.

1. The memory: the highlighted one, or one of core's split candidates (ranked, with reasons).
2. The parts: core's ``suggest_split`` to start from; each part in a text area; add, remove,
   join with the next, reorder, cut at the cursor. A part that likely repeats a memory of the
   vault says which in its heading (``memvault add``'s check: ``core.ops.split_repeats``),
   checked again with each step's check.
3. Tags and entities of each part (prefilled, comma separated).
4. The original: archive (default) or delete.
5. Preview: the new memories with their gists and inherited fields, the split_from relations
   and the commit message; confirm runs the split (one commit) in a worker.

Every step is checked with core's rules (the service plans the split with ``plan_split``,
writing nothing) before the next one opens; what is wrong shows at the step where it happens.
Cancel, at any step, changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual import on, work
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core import MemoryStatus, VaultError, relations_of_gone
from core.ops.split import SplitCandidate
from core.vault import first_words

from ..messages import WizardChecked, WizardLoaded
from ..service import SplitDraft, SplitPreview, VaultService
from ..view import STATUS_STYLE
from ..widgets.plan_preview import split_preview
from ..widgets.split_labels import LabelsEditor
from ..widgets.split_parts import DraftPart, PartsEditor
from ..widgets.wizard import ChoiceList
from ..widgets.lists import RowOptions
from .wizard import WizardScreen

FATES = [
    ("archive", "Archive the original (default)",
     "it stays in the vault with status archived; its relations stay"),
    ("delete", "Delete the original",
     "it leaves the vault with its relations (the split_from edges stay); git history keeps it"),
]


class SplitWizard(WizardScreen):
    TITLE_TEXT = "Split a memory"
    STEPS = [("split-memory", "Memory"), ("split-parts", "Parts"),
             ("split-labels", "Tags & entities"), ("split-original", "Original"),
             ("split-preview", "Preview")]
    CONFIRM = "Split"
    WORKING = "splitting…"

    def __init__(self, service: VaultService, memory_id: str | None = None) -> None:
        super().__init__(service)
        self.start_id = memory_id  # the memory highlighted in the tree, if any
        self.candidates: list[SplitCandidate] | None = None
        self.draft: SplitDraft | None = None
        self.parts: list[DraftPart] = []
        self.preview: SplitPreview | None = None
        self._silent = -1  # serial of a re-check that only updates the error line

    # -- steps ------------------------------------------------------------------------------
    def compose_step(self, step_id: str) -> Iterable[Widget]:
        if step_id == "split-memory":
            yield Static(Text("Which memory? The highlighted one, or one that looks composite "
                              "(most reasons first). Enter or Next continues.", style="dim"),
                         classes="step-hint")
            yield RowOptions(id="split-choices")
            yield Static("", id="split-memory-detail", classes="step-detail")
        elif step_id == "split-parts":
            yield Static("", id="split-parts-hint", classes="step-hint")
            yield PartsEditor(id="split-parts-editor")
        elif step_id == "split-labels":
            yield Static(Text("Tags and entities of each part, comma separated: the "
                              "original's tags and the names each part's text mentions, "
                              "derived again when you edit a part; what you type here stays.",
                              style="dim"), classes="step-hint")
            yield LabelsEditor(id="split-labels-editor")
        elif step_id == "split-original":
            yield Static("", id="split-original-hint", classes="step-hint")
            yield ChoiceList(FATES, id="split-fate")
            yield Static("", id="split-original-note", classes="step-detail")
        elif step_id == "split-preview":
            with VerticalScroll(id="split-preview-body"):
                yield Static("", id="split-preview-text")

    def on_mount(self) -> None:
        super().on_mount()
        self._fill_choices()
        self.load_candidates()

    def entered(self, step_id: str) -> None:
        if step_id == "split-parts":
            self._parts_hint()
        elif step_id == "split-labels":
            self._prefill_labels()
            self.run_worker(self.query_one(LabelsEditor).load(self.parts), group="ui")
        elif step_id == "split-original":
            self._original_note()
        elif step_id == "split-preview":
            self._show_preview()

    # -- step 1: the memory ------------------------------------------------------------------
    @work(thread=True, group="wizard-load", exit_on_error=False)
    def load_candidates(self) -> None:
        try:
            found = self.service.wizards.split_candidates()
        except VaultError as exc:
            self.post_message(WizardLoaded("candidates", [], str(exc)))
            return
        self.post_message(WizardLoaded("candidates", found))

    @on(WizardLoaded)
    def _loaded(self, message: WizardLoaded) -> None:
        message.stop()
        if message.what == "candidates":
            self.candidates = message.result or []
            self._fill_choices()

    def _fill_choices(self) -> None:
        options = self.query_one("#split-choices", OptionList)
        keep = options.highlighted_option.id if options.highlighted_option else None
        view = self.service.view
        items: list[Option | None] = []
        reasons = {c.memory.id: c.reasons for c in self.candidates or []}
        start = self.start_id if self.start_id in view.rows else None
        if start is not None:
            items.append(Option(self._choice(start, reasons.get(start), "highlighted"),
                                id=start))
        if self.candidates is None:
            items.append(Option(Text("reading split candidates…", style="dim italic"),
                                id="-reading", disabled=True))
        else:
            others = [c for c in self.candidates if c.memory.id != start]
            if items and others:
                items.append(None)
            if others:
                for c in others:
                    items.append(Option(self._choice(c.memory.id, c.reasons, None),
                                        id=c.memory.id))
            elif start is None or start not in reasons:
                items.append(Option(Text("no memory looks composite (long with several ideas, "
                                         "many tags or entities, used across domains)",
                                         style="dim italic"), id="-none", disabled=True))
        options.clear_options()
        options.add_options(items)
        ids = [o.id for o in options.options]
        if keep in ids:
            options.highlighted = ids.index(keep)
        else:
            options.highlighted = next((i for i, o in enumerate(options.options)
                                        if not o.disabled), None)
        self._memory_detail()

    def _choice(self, memory_id: str, reasons: list[str] | None, note: str | None) -> Text:
        row = self.service.view.get(memory_id)
        text = Text(no_wrap=True, overflow="ellipsis")
        if note:
            text.append(f"{note}  ", style="bold cyan")
        text.append(memory_id[:8], style="bold")
        if row is not None:
            m = row.memory
            if m.status != MemoryStatus.ACTIVE:
                text.append(f" {m.status.value}", style=STATUS_STYLE[m.status])
            text.append(" " + first_words(m.text, 72))
        if reasons:
            text.append("\n   " + " · ".join(reasons), style="dim")
        return text

    @property
    def chosen_id(self) -> str | None:
        option = self.query_one("#split-choices", OptionList).highlighted_option
        return option.id if option is not None and not option.disabled else None

    @on(OptionList.OptionHighlighted, "#split-choices")
    def _memory_highlighted(self) -> None:
        self._memory_detail()
        self.set_error(None)

    def _memory_detail(self) -> None:
        detail = self.query_one("#split-memory-detail", Static)
        memory_id = self.chosen_id
        row = self.service.view.get(memory_id) if memory_id else None
        if row is None:
            detail.update(Text("Highlight a memory in the tree, or pick a candidate above.",
                               style="dim"))
            return
        m = row.memory
        text = Text()
        text.append(m.id, style="bold")
        text.append(f"  {m.status.value}", style=STATUS_STYLE[m.status])
        text.append(f"  {len(m.content)} characters", style="dim")
        if m.meta.tags:
            text.append("  tags ", style="dim")
            text.append(", ".join(m.meta.tags))
        text.append("\n")
        text.append(m.content.strip())
        detail.update(text)

    # -- step 2: the parts -------------------------------------------------------------------
    def _parts_hint(self) -> None:
        hint = Text(style="dim")
        if len(self.parts) == 1:
            hint.append("One part so far: cut it at the cursor "
                        f"({self.key_of('memvault.split.cut_part')}) or add parts. ",
                        style="yellow")
        else:
            hint.append("Drafted by suggest_split; edit freely. ")
        for binding_id, what in (("memvault.split.add_part", "new part"),
                                 ("memvault.split.cut_part", "cut at cursor"),
                                 ("memvault.split.join_part", "join next"),
                                 ("memvault.split.remove_part", "remove"),
                                 ("memvault.split.part_up", "move up"),
                                 ("memvault.split.part_down", "down"),
                                 ("memvault.split.next_part", "next part (or tab)")):
            hint.append(self.key_of(binding_id), style="bold")
            hint.append(f" {what}  ")
        self.query_one("#split-parts-hint", Static).update(hint)

    @on(PartsEditor.Changed)
    def _parts_changed(self, event: PartsEditor.Changed) -> None:
        event.stop()
        if self.step_id == "split-parts":
            self._parts_hint()
        if self.step_id == "split-parts" and self.error_text and not self.busy:
            self.recheck()  # the person is fixing what was wrong: keep the line honest

    def edit_state(self) -> object:
        return tuple((p.text, p.typed_labels) for p in self.parts) or None

    def _texts(self) -> list[str]:
        return [p.text for p in self.parts]

    # -- step 3: tags and entities -----------------------------------------------------------
    def _prefill_labels(self) -> None:
        """Tags and entities the person did not type are derived again from each part's text
        as it is now (core's rule, ``label_parts``): edits of the text at step 2 count."""
        if self.draft is None:
            return
        derived = self.service.wizards.split_labels(self.draft.memory, self._texts())
        for part, labels in zip(self.parts, derived):
            if not part.labels_typed:
                part.tags, part.entities = list(labels.tags), list(labels.entities)

    # -- step 4: the original ----------------------------------------------------------------
    def _original_note(self) -> None:
        if self.draft is None:
            return
        m = self.draft.memory
        hint = Text("What becomes of ", style="dim")
        hint.append(m.id[:8], style="bold")
        hint.append(" " + first_words(m.text, 50), style="dim")
        hint.append("?", style="dim")
        self.query_one("#split-original-hint", Static).update(hint)
        view = self.service.view
        others = relations_of_gone(view.relations_of(m.id), {m.id}).removed  # core's rule
        note = Text(style="dim")
        if others:
            note.append(f"Its {len(others)} other relation{'s' if len(others) != 1 else ''} "
                        "stay with it when archived, go with it when deleted:")
            for r in others[:6]:
                other = r.to_memory_id if r.from_memory_id == m.id else r.from_memory_id
                row = view.get(other)
                note.append(f"\n  {r.relation_type} ", style="cyan")
                note.append(other[:8], style="bold")
                note.append(" " + (first_words(row.memory.text, 50) if row else "(not in the vault)"))
        else:
            note.append("It has no other relations.")
        self.query_one("#split-original-note", Static).update(note)

    # -- checking -----------------------------------------------------------------------------
    def check(self, step_id: str, serial: int) -> None:
        if step_id == "split-memory":
            memory_id = self.chosen_id
            if memory_id is None:
                self.failed("choose a memory to split first")
                return
            self.load_draft(memory_id, serial)
            return
        with_labels = step_id in ("split-labels", "split-original")
        self.plan(serial, step_id, self._texts(),
                  [p.tags or [] for p in self.parts] if with_labels else None,
                  [p.entities or [] for p in self.parts] if with_labels else None,
                  self.query_one(ChoiceList).value if step_id == "split-original" else "archive")

    def recheck(self) -> None:
        self.serial += 1
        self._silent = self.serial
        self.plan(self.serial, self.step_id, self._texts(), None, None, "archive")

    @work(thread=True, group="wizard-check", exit_on_error=False)
    def load_draft(self, memory_id: str, serial: int) -> None:
        try:
            draft = self.service.wizards.split_draft(memory_id)
        except VaultError as exc:
            self.post_message(WizardChecked(serial, "split-memory", error=str(exc)))
            return
        self.post_message(WizardChecked(serial, "split-memory", draft))

    @work(thread=True, group="wizard-check", exit_on_error=False)
    def plan(self, serial: int, step_id: str, texts: list[str], tags: list[list[str]] | None,
             entities: list[list[str]] | None, fate: str) -> None:
        try:
            preview = self.service.wizards.plan_split(self._memory_id, texts, tags, entities, fate)
        except VaultError as exc:
            self.post_message(WizardChecked(serial, step_id, error=str(exc)))
            return
        self.post_message(WizardChecked(serial, step_id, preview))

    @property
    def _memory_id(self) -> str:
        assert self.draft is not None
        return self.draft.memory.id

    @on(WizardChecked)
    def _silent_check(self, message: WizardChecked) -> None:
        if message.serial == self._silent:
            message.stop()
            message.prevent_default()
            if message.step == self.step_id:
                self.set_error(message.error)

    def accept(self, step_id: str, preview: object) -> None:
        if step_id == "split-memory":
            assert isinstance(preview, SplitDraft)
            if self.draft is None or self.draft.memory.id != preview.memory.id:
                self.draft = preview
                self.parts = [DraftPart(p.content, list(p.tags), list(p.entities))
                              for p in preview.parts]
                for part, repeats in zip(self.parts, preview.repeats):
                    part.checked([(r.memory_id, r.similarity) for r in repeats], part.text)
                self.mark_pristine()
                self.run_worker(self.query_one(PartsEditor).load(self.parts), group="ui")
        elif isinstance(preview, SplitPreview):
            self.preview = preview
            if len(preview.repeats) == len(self.parts):
                for part, made, repeats in zip(self.parts, preview.parts, preview.repeats):
                    part.checked([(r.memory_id, r.similarity) for r in repeats], made.content)
                self.query_one(PartsEditor).show_headings()

    # -- step 5: the preview -----------------------------------------------------------------
    def _show_preview(self) -> None:
        p = self.preview
        body = self.query_one("#split-preview-text", Static)
        if p is None:
            body.update("")
            return
        body.update(split_preview(p, self.service.view.now))

    # -- confirm -----------------------------------------------------------------------------
    def confirm(self) -> None:
        p = self.preview
        if p is None or self.draft is None:
            self.failed("nothing to split yet")
            return
        self.run_operation(lambda: self.service.wizards.split(p), self.serial)
