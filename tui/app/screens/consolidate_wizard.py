"""The consolidate wizard: merge similar memories into one, step by step.

1. The members: the memories marked in the tree, or a cluster core suggests (``find_clusters``,
   with its cohesion and suggested action; the similarity threshold can be lowered).
2. The merged memory: its content (editable), the union of tags and entities, strength, use
   count and the gist made from the content.
3. The sources: delete (default, as CortexGraph) or archive.
4. Confirm: the consolidated_from relations and the commit message; confirm runs it (one
   commit) in a worker, and the cursor lands on the merged memory.

Every step is checked with core's rules (the service plans it with ``plan_consolidation``,
writing nothing); what is wrong shows at the step where it happens. Cancel changes nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import cast

from rich.text import Text
from textual import on, work
from textual.containers import Horizontal, VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Label, OptionList, Select, Static, TextArea
from textual.widgets.option_list import Option

from core import VaultError
from core.ops.consolidate import DEFAULT_THRESHOLD, Cluster, suggested_action

from ...text import date_text, relative_time
from ..keys import key_for
from ..messages import WizardChecked, WizardLoaded
from ..service import MergePreview, VaultService
from ..widgets.detail import no_gist_note
from ..widgets.lists import RowOptions
from ..widgets.memory_tree import MemoryTree
from ..widgets.merge_choices import ACTION_STYLE, cluster_prompt, marked_prompt, members_text
from ..widgets.plan_preview import merge_summary
from ..widgets.text_area import EditorArea
from ..widgets.wizard import ChoiceList
from .wizard import WizardScreen

THRESHOLDS = [DEFAULT_THRESHOLD, 0.75, 0.65, 0.55]
FATES = [
    ("delete", "Delete the sources (default)",
     "they leave the vault; their other relations move to the merged memory; git history keeps "
     "them"),
    ("archive", "Archive the sources",
     "they stay in the vault with status archived, with their relations"),
]
MARKED = "marked"


class ConsolidateWizard(WizardScreen):
    TITLE_TEXT = "Consolidate memories"
    STEPS = [("merge-members", "Members"), ("merge-content", "Merged memory"),
             ("merge-sources", "Sources"), ("merge-confirm", "Confirm")]
    CONFIRM = "Merge"
    WORKING = "merging…"
    FOCUS = {"merge-members": "#merge-choices", "merge-content": "#merge-content-text"}

    def __init__(self, service: VaultService, marked: list[str] | None = None,
                 focus_id: str | None = None) -> None:
        super().__init__(service)
        self.marked = list(dict.fromkeys(marked or []))
        self.focus_id = focus_id  # clusters holding this memory are listed first
        self.threshold = DEFAULT_THRESHOLD
        self.clusters: list[Cluster] | None = None
        self.members: list[str] = []  # the members the next steps work on
        self.preview: MergePreview | None = None
        self._silent = -1
        self._content_timer: Timer | None = None

    # -- steps ------------------------------------------------------------------------------
    def compose_step(self, step_id: str) -> Iterable[Widget]:
        if step_id == "merge-members":
            # short enough for 80 columns: the threshold is never pushed off the screen (the
            # list's first choice says how to mark memories in the tree instead)
            with Horizontal(id="merge-threshold-row"):
                yield Static(Text("Clusters of memories at similarity ≥", style="dim"),
                             id="merge-members-hint")
                yield Select([(f"{t:g}", t) for t in THRESHOLDS], value=self.threshold,
                             allow_blank=False, id="merge-threshold", compact=True)
            yield RowOptions(id="merge-choices")
            yield Static("", id="merge-members-detail", classes="step-detail")
        elif step_id == "merge-content":
            yield Static("", id="merge-facts", classes="step-hint")
            yield Label(Text("content (edit freely; the gist follows it)", style="dim"))
            yield EditorArea("", id="merge-content-text", soft_wrap=True)
            yield Static("", id="merge-gist", classes="step-detail")
        elif step_id == "merge-sources":
            yield Static("", id="merge-sources-hint", classes="step-hint")
            yield ChoiceList(FATES, id="merge-fate")
            yield Static("", id="merge-sources-note", classes="step-detail")
        elif step_id == "merge-confirm":
            with VerticalScroll(id="merge-confirm-body"):
                yield Static("", id="merge-summary")

    def on_mount(self) -> None:
        super().on_mount()
        self._fill_choices()
        self.load_clusters(self.threshold)

    def entered(self, step_id: str) -> None:
        if step_id == "merge-content":
            self._show_facts()
        elif step_id == "merge-sources":
            self._sources_note()
        elif step_id == "merge-confirm":
            self._show_summary()

    # -- step 1: the members -----------------------------------------------------------------
    def load_clusters(self, threshold: float) -> None:
        """Ask core for clusters in a daemon thread rather than a worker: on a big vault of
        look-alike memories clustering can take minutes, and a worker (a thread of the default
        executor, which cannot be stopped) would keep the app from exiting until it is done.
        The answer comes back as a :class:`WizardLoaded`; a closed wizard never hears it."""

        def run() -> None:
            try:
                found = self.service.wizards.clusters(threshold)
            except VaultError as exc:
                self.post_message(WizardLoaded("clusters", [], str(exc), key=threshold))
                return
            self.post_message(WizardLoaded("clusters", found, key=threshold))

        threading.Thread(target=run, name="memvault-clusters", daemon=True).start()

    @on(WizardLoaded)
    def _loaded(self, message: WizardLoaded) -> None:
        message.stop()
        if message.what == "clusters" and message.key == self.threshold:
            clusters = message.result or []
            if self.focus_id:
                clusters.sort(key=lambda c: self.focus_id not in {m.id for m in c.members})
            self.clusters = clusters
            if message.error:
                self.notify(message.error, title="clusters", severity="error", markup=False)
            self._fill_choices()

    @on(Select.Changed, "#merge-threshold")
    def _threshold(self, event: Select.Changed) -> None:
        event.stop()
        if isinstance(event.value, float) and event.value != self.threshold:
            self.threshold = event.value
            self.clusters = None
            self._fill_choices()
            self.load_clusters(self.threshold)

    def _fill_choices(self) -> None:
        options = self.query_one("#merge-choices", OptionList)
        keep = options.highlighted_option.id if options.highlighted_option else None
        items: list[Option | None] = [Option(self._marked_prompt(), id=MARKED)]
        if self.clusters is None:
            items.append(None)
            items.append(Option(Text(f"finding clusters at similarity ≥ {self.threshold:g}…",
                                     style="dim italic"), id="-reading", disabled=True))
        elif not self.clusters:
            items.append(None)
            items.append(Option(Text(f"no clusters at similarity ≥ {self.threshold:g}: try a "
                                     "lower threshold above", style="dim italic"),
                                id="-none", disabled=True))
        else:
            for cluster in self.clusters:
                items.append(None)
                items.append(Option(self._cluster_prompt(cluster), id=cluster.id))
        options.clear_options()
        options.add_options(items)
        ids = [o.id for o in options.options]
        # A cluster is the first choice only when nothing is marked: one marked memory is the
        # person's choice too (Next says it needs a second one), never swapped silently.
        if keep in ids and not (keep == MARKED and not self.marked and self.clusters):
            options.highlighted = ids.index(keep)
        elif not self.marked and self.clusters:
            options.highlighted = ids.index(self.clusters[0].id)
        else:
            options.highlighted = 0
        self._members_detail()

    def _marked_prompt(self) -> Text:
        return marked_prompt(self.marked, self.service.view,
                             key_for(self.app, MemoryTree, "screen.mark"))

    def _cluster_prompt(self, cluster: Cluster) -> Text:
        return cluster_prompt(cluster, self.focus_id)

    def _choice_ids(self) -> list[str] | None:
        option = self.query_one("#merge-choices", OptionList).highlighted_option
        if option is None or option.disabled:
            return None
        if option.id == MARKED:
            return list(self.marked)
        for cluster in self.clusters or []:
            if cluster.id == option.id:
                return [m.id for m in cluster.members]
        return None

    @on(OptionList.OptionHighlighted, "#merge-choices")
    def _choice_highlighted(self) -> None:
        self._members_detail()
        if self.step_id == "merge-members":
            self.set_error(None)

    def _members_detail(self) -> None:
        ids = self._choice_ids()
        self.query_one("#merge-members-detail", Static).update(
            members_text(ids, self.service.view) if ids else "")

    # -- step 2: the merged memory -----------------------------------------------------------
    def _show_facts(self) -> None:
        p = self.preview
        facts = self.query_one("#merge-facts", Static)
        if p is None:
            facts.update("")
            return
        plan = p.plan
        m = plan.merged
        now = self.service.view.now
        text = Text()
        action = suggested_action(plan.cohesion)
        text.append(f"{len(plan.sources)} memories", style="bold")
        text.append(f" · cohesion {plan.cohesion:.2f} (", style="dim")
        text.append(action, style=ACTION_STYLE.get(action, ""))
        text.append(")", style="dim")
        text.append("\ntags      ", style="dim")
        text.append(", ".join(m.meta.tags) or "—", style="cyan")
        text.append("\nentities  ", style="dim")
        text.append(", ".join(m.entities) or "—", style="magenta")
        text.append("\nstrength  ", style="dim")
        text.append(f"{m.strength:.2f}", style="bold")
        strongest = max(s.strength for s in plan.sources)
        text.append(f" (the strongest source's {strongest:.2f} plus a bonus for cohesion and "
                    "size, at most 2)", style="dim")
        text.append("\nuses      ", style="dim")
        text.append(f"{m.use_count}", style="bold")
        text.append(" (summed)", style="dim")
        text.append("   created ", style="dim")
        text.append(f"{date_text(m.created_at)} ({relative_time(m.created_at, now)})")
        text.append("   last used ", style="dim")
        text.append(relative_time(m.last_used, now))
        facts.update(text)
        self._show_gist()

    def _show_gist(self) -> None:
        p = self.preview
        gist = self.query_one("#merge-gist", Static)
        if p is None:
            gist.update("")
            return
        m = p.plan.merged
        text = Text()
        text.append("gist  ", style="bold")
        if m.gist:
            text.append(m.gist, style="")
        else:
            text.append("none: " + no_gist_note(m.content, "the content is short enough to be its "
                                                "own gist"), style="dim italic")
        gist.update(text)

    @on(TextArea.Changed, "#merge-content-text")
    def _content_changed(self) -> None:
        if self.step_id != "merge-content":
            return
        if self._content_timer is not None:
            self._content_timer.stop()
        self._content_timer = self.set_timer(0.3, self.recheck)

    def edit_state(self) -> object:
        return self._content() if self.members else None

    def _content(self) -> str:
        return self.query_one("#merge-content-text", TextArea).text

    def recheck(self) -> None:
        """The content changed: plan again to update the gist (and the error line)."""
        if self.busy or self.step_id != "merge-content":
            return
        self.serial += 1
        self._silent = self.serial
        self.plan(self.serial, self.step_id, self.members, self._content(), "delete")

    @on(WizardChecked)
    def _silent_check(self, message: WizardChecked) -> None:
        if message.serial == self._silent:
            message.stop()
            message.prevent_default()
            if message.step == self.step_id:
                self.set_error(message.error)
                if message.preview is not None:
                    self.preview = message.preview[1]
                    self._show_facts()

    # -- step 3: the sources -----------------------------------------------------------------
    def _sources_note(self) -> None:
        hint = Text("What becomes of the ", style="dim")
        hint.append(f"{len(self.members)} sources", style="bold")
        hint.append("? The merged memory links to each with consolidated_from either way.",
                    style="dim")
        self.query_one("#merge-sources-hint", Static).update(hint)
        p = self.preview
        note = Text(style="dim")
        if p is not None:
            dropped = {r.id: r for r in p.dropped}
            if dropped:
                k = len(dropped)
                note.append(f"The sources have {k} other relation{'s' if k != 1 else ''}: "
                            "deleting re-points those to memories outside the group at the "
                            "merged memory; archiving leaves them as they are.")
            else:
                note.append("The sources have no other relations.")
        self.query_one("#merge-sources-note", Static).update(note)

    # -- checking -----------------------------------------------------------------------------
    def check(self, step_id: str, serial: int) -> None:
        if step_id == "merge-members":
            ids = self._choice_ids()
            if ids is None:
                self.failed("choose the marked memories or a cluster first")
                return
            self.plan(serial, step_id, ids, None, "delete")
        elif step_id == "merge-content":
            self.plan(serial, step_id, self.members, self._content(), "delete")
        elif step_id == "merge-sources":
            fate = self.query_one("#merge-fate", ChoiceList).value
            self.plan(serial, step_id, self.members, self._content(), fate)

    @work(thread=True, group="wizard-check", exit_on_error=False)
    def plan(self, serial: int, step_id: str, ids: list[str], content: str | None,
             fate: str) -> None:
        try:
            preview = self.service.wizards.plan_consolidation(ids, content, fate)
        except VaultError as exc:
            self.post_message(WizardChecked(serial, step_id, error=str(exc)))
            return
        self.post_message(WizardChecked(serial, step_id, (ids, preview)))

    def accept(self, step_id: str, preview: object) -> None:
        ids, plan = cast(tuple[list[str], MergePreview], preview)
        assert isinstance(plan, MergePreview)
        if step_id == "merge-members":
            if ids != self.members:  # new members: start again from core's merged content
                self.members = list(ids)
                area = self.query_one("#merge-content-text", TextArea)
                area.load_text(plan.plan.merged.content)
                self.mark_pristine()
        self.preview = plan

    # -- step 4: confirm ---------------------------------------------------------------------
    def _show_summary(self) -> None:
        p = self.preview
        body = self.query_one("#merge-summary", Static)
        body.update(merge_summary(p) if p is not None else "")

    def confirm(self) -> None:
        p = self.preview
        if p is None or not self.members:
            self.failed("nothing to merge yet")
            return
        self.run_operation(lambda: self.service.wizards.consolidate(p), self.serial)
