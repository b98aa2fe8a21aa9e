"""The frame both wizards share (split and consolidate): a modal with a title, a rail of
steps, one step shown at a time, a line for what is wrong with it, and Cancel / Back / Next.

A subclass lists its ``STEPS``, composes each one (:meth:`compose_step`), checks a step when the
person asks for the next one (:meth:`check`: usually a worker that asks the service to plan the
operation with core's rules; the answer comes back as a :class:`~tui.app.messages.WizardChecked`
and ends in :meth:`passed` or :meth:`failed`) and runs the operation at the last step
(:meth:`confirm`). The wizard dismisses with the service's :class:`~tui.app.service.Change`, or
with None when cancelled: nothing before the last step writes anything.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import AwaitMount, Widget
from textual.widgets import Button, ContentSwitcher, OptionList, Static

from core import VaultError

from ..messages import MemoriesChanged, OperationFailed, WizardChecked
from ..service import Change, VaultService
from ..widgets.wizard import StepRail
from .backdrop import SeeThroughModal


class WizardScreen(SeeThroughModal[Change | None]):
    TITLE_TEXT = "wizard"
    STEPS: list[tuple[str, str]] = []  # (widget id, title)
    CONFIRM = "Confirm"  # the Next button's label at the last step
    WORKING = "working…"  # ... while the operation runs

    BINDINGS = [
        Binding("ctrl+n", "next", "Next", id="memvault.wizard.next"),
        Binding("ctrl+b", "back", "Back", id="memvault.wizard.back"),
        Binding("escape", "cancel", "Cancel", id="memvault.wizard.cancel"),
    ]

    def __init__(self, service: VaultService) -> None:
        super().__init__()
        self.service = service
        self.step = 0
        self.busy = False
        self.serial = 0  # numbers checks, so a late answer to an old one is ignored
        self.done = False
        self.built: set[str] = set()  # the steps whose widgets are composed (build)
        self.mounting: dict[str, AwaitMount] = {}  # ... and not shown since

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Vertical(id="wizard", classes="dialog wizard"):
            yield Static(Text(self.TITLE_TEXT, style="bold"), id="wizard-title",
                         classes="dialog-title")
            yield StepRail([title for _, title in self.STEPS], id="wizard-rail")
            with ContentSwitcher(id="wizard-steps", initial=self.STEPS[0][0]):
                for index, (step_id, _title) in enumerate(self.STEPS):
                    with Vertical(id=step_id, classes="wizard-step"):
                        if index == 0:  # the others are built when first needed (build)
                            self.built.add(step_id)
                            yield from self.compose_step(step_id)
            yield Static("", id="wizard-error")
            with Horizontal(id="wizard-buttons"):
                yield Static("", id="wizard-keys")
                yield Button("Cancel", id="wizard-cancel", compact=True)
                yield Button("‹ Back", id="wizard-back", compact=True)
                yield Button("Next ›", id="wizard-next", variant="primary", compact=True)

    def compose_step(self, step_id: str) -> Iterable[Widget]:
        raise NotImplementedError

    def build(self, step_id: str) -> AwaitMount | None:
        """Compose the step's widgets the first time it is asked for (None: built already): a
        wizard opens with its first step alone built and styled, and builds the next one once
        a step is drawn (issue 42: ``M`` built and styled all four steps of the consolidate
        wizard before its first frame). The step's own widgets are in the DOM at once; those
        inside a container of it once the returned mount is awaited."""
        if step_id in self.built:
            return None
        self.built.add(step_id)
        mounting = self.query_one(f"#{step_id}").mount_compose(self.compose_step(step_id))
        self.mounting[step_id] = mounting
        return mounting

    def on_mount(self) -> None:
        self.query_one("#wizard-error", Static).display = False
        self.query_one("#wizard-keys", Static).update(self.key_hints())
        self.go(0)
        self.focus_step()

    # -- moving between steps ----------------------------------------------------------------
    @property
    def step_id(self) -> str:
        return self.STEPS[self.step][0]

    @property
    def last(self) -> bool:
        return self.step == len(self.STEPS) - 1

    def go(self, index: int) -> None:
        self.step = index
        self.serial += 1
        self.busy = False
        self.set_error(None)
        step_id = self.step_id
        self.build(step_id)
        mounting = self.mounting.pop(step_id, None)  # built, not shown yet
        self.query_one(ContentSwitcher).current = step_id
        self.query_one(StepRail).current = index
        self._buttons()
        if not self.last:  # the next step, once this one is drawn: ready when Next is pressed
            self.call_after_refresh(self.build, self.STEPS[index + 1][0])
        if mounting is None:
            self.entered(step_id)
            return

        async def enter() -> None:  # the step's widgets mounted, nested ones too
            await mounting
            if self.step_id == step_id and self.is_attached:
                self.entered(step_id)
                self.focus_step()

        self.call_later(enter)

    def _buttons(self) -> None:
        back = self.query_one("#wizard-back", Button)
        back.disabled = self.step == 0 or self.busy
        nxt = self.query_one("#wizard-next", Button)
        if self.busy:
            nxt.label = self.WORKING if self.last else "checking…"
        else:
            nxt.label = f"{self.CONFIRM} ✓" if self.last else "Next ›"
        nxt.disabled = self.busy

    def entered(self, step_id: str) -> None:
        """A step is shown (first time or again): fill it in, focus where the work is."""

    @on(Button.Pressed, "#wizard-next")
    def action_next(self) -> None:
        if self.busy or self.done:
            return
        self.busy = True
        self.serial += 1
        self.set_error(None)
        self._buttons()
        if self.last:
            self.confirm()
        else:
            self.check(self.step_id, self.serial)

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter on a list of choices (a memory, a cluster, a fate) goes on, like Next."""
        event.stop()
        self.action_next()

    @on(Button.Pressed, "#wizard-back")
    def action_back(self) -> None:
        if self.step > 0 and not self.done:
            self.go(self.step - 1)
            self.focus_step()

    @on(Button.Pressed, "#wizard-cancel")
    def action_cancel(self) -> None:
        """Cancel (esc): at once when the person typed nothing, else after asking."""
        if self.done:
            return
        if self.busy and self.last:  # the operation is running: its result must land
            self.notify("It is running; a moment…", timeout=2)
            return
        from .confirm import close_asking

        close_asking(self, self.edited, f"Discard your edits? ({self.TITLE_TEXT.lower()})",
                     "this wizard", still=lambda: not self.done)

    # -- what the person typed (esc asks before throwing it away) ----------------------------
    pristine: object = None  # the editable state as the wizard drafted it

    def edit_state(self) -> object:
        """What the person can type in this wizard, comparable (None: nothing drafted yet)."""
        return None

    def mark_pristine(self) -> None:
        """The wizard (re)drafted what the person edits: compare with this from now on."""
        self.pristine = self.edit_state()

    @property
    def edited(self) -> bool:
        return self.edit_state() != self.pristine

    FOCUS: dict[str, str] = {}  # step id -> selector of what to focus there (default: the first)

    def focus_step(self) -> None:
        """Focus the first thing to work with in the current step."""
        step = self.query_one(f"#{self.step_id}")
        selector = self.FOCUS.get(self.step_id)
        if selector:
            target = step.query(selector)
            if target:
                target.first().focus()
                return
        for widget in step.query("*"):
            if widget.focusable and widget.display and widget.visible:
                widget.focus()
                return
        self.query_one("#wizard-next", Button).focus()

    # -- checking a step ---------------------------------------------------------------------
    def check(self, step_id: str, serial: int) -> None:
        """Check the step; end with :meth:`passed` or :meth:`failed` (perhaps through a worker
        that posts a :class:`WizardChecked` with this ``serial``)."""
        self.passed()

    def passed(self) -> None:
        self.busy = False
        if not self.last:
            self.go(self.step + 1)
            self.focus_step()

    def failed(self, message: str) -> None:
        self.busy = False
        self._buttons()
        self.set_error(message)

    @on(WizardChecked)
    async def _checked(self, message: WizardChecked) -> None:
        message.stop()
        if message.serial != self.serial or message.step != self.step_id or not self.busy:
            return  # an answer to an older question
        if message.error is not None:
            self.failed(message.error)
        else:
            if not self.last:  # what the step passed fills in the next one: mounted first
                next_id = self.STEPS[self.step + 1][0]
                if self.build(next_id) is not None:
                    await self.mounting.pop(next_id)
                    if message.serial != self.serial or not self.busy:
                        return  # (moved on meanwhile)
            self.accept(message.step, message.preview)
            self.passed()

    def accept(self, step_id: str, preview: object) -> None:
        """Keep what the service planned for a step that passed (for the preview)."""

    def set_error(self, message: str | None) -> None:
        error = self.query_one("#wizard-error", Static)
        if not message:
            error.update("")
            error.display = False
            return
        line = Text("✗ ", style="bold red")
        line.append(message, style="red")
        error.update(line)
        error.display = True

    @property
    def error_text(self) -> str:
        """What the error line says now ("" when nothing is wrong)."""
        error = self.query_one("#wizard-error", Static)
        content = error.content
        return content.plain if isinstance(content, Text) else str(content or "")

    # -- running it --------------------------------------------------------------------------
    def confirm(self) -> None:
        raise NotImplementedError

    @work(thread=True, group="wizard", exit_on_error=False)
    def run_operation(self, operation, serial: int) -> None:  # type: ignore[no-untyped-def]
        try:
            change = operation()
        except VaultError as exc:
            self.post_message(WizardChecked(serial, self.STEPS[-1][0], error=str(exc)))
            return
        self.post_message(MemoriesChanged(change))

    @on(MemoriesChanged)
    def _finished(self, message: MemoriesChanged) -> None:
        message.stop()
        self.done = True
        self.dismiss(message.change)

    @on(OperationFailed)
    def _operation_failed(self, message: OperationFailed) -> None:
        message.stop()
        self.failed(message.message)

    # -- keys --------------------------------------------------------------------------------
    def key_of(self, binding_id: str) -> str:
        """The first key bound to ``binding_id`` as the keymap has it now, for display."""
        for binding in self._all_bindings():
            if binding.id == binding_id:
                keymap = getattr(self.app, "keymap", {}) or {}
                key = keymap.get(binding_id, binding.key).split(",")[0].strip()
                return self.app.get_key_display(Binding(key, binding.action))
        return "?"

    def _all_bindings(self) -> list[Binding]:
        found = [b for b in self.BINDINGS if isinstance(b, Binding)]
        from ..widgets.split_parts import PartEditor

        found += [b for b in PartEditor.BINDINGS if isinstance(b, Binding)]
        return found

    def key_hints(self) -> Text:
        hint = Text(style="dim")
        for binding_id, what in (("memvault.wizard.next", "next"),
                                 ("memvault.wizard.back", "back"),
                                 ("memvault.wizard.cancel", "cancel")):
            if hint:
                hint.append(" · ")
            hint.append(self.key_of(binding_id), style="bold")
            hint.append(f" {what}")
        return hint
