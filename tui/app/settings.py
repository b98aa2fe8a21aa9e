"""The app's settings that persist between runs: theme, the tree's sort and group
mode, gist or content first, tree or flat list, the flat list's sort, the left pane's width
(one for the tree, one for the flat list), the keymap and the decay model and thresholds (an
environment variable set overrides these two: :mod:`tui.app.configured`).

One small JSON file, ``settings.json``, in the user's config folder (platformdirs:
``~/.config/memvault`` on Linux), or in ``$MEMVAULT_CONFIG_DIR`` when that is set. Written
atomically (a temp file in the same folder, then ``os.replace``), pretty-printed, mode 0600.
A file that cannot be read, is not JSON, or holds a value this version does not accept never
stops the app: what is wrong is reported (:attr:`Loaded.notice`) and the defaults stand in for
it. Keys this version does not know are kept when the file is written again. Pure Python (no
textual): the app applies and saves them.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from core.store.files import replace_file

from .choices import MODES, SORTS
from core.store.private import make_folders

ENV = "MEMVAULT_CONFIG_DIR"
FILE = "settings.json"
VIEWS = ("tree", "list")
LIST_SORTS = ("score", "status", "id", "text", "tags", "last_used")
LEFT_MIN, LEFT_MAX = 25, 80  # the left pane's width, in percent of the screen


@dataclass
class Settings:
    theme: str | None = None  # None: Textual's default
    sort: str = SORTS[0]
    mode: str = MODES[0]
    show_content: bool = False
    view: str = VIEWS[0]
    list_sort: str = LIST_SORTS[0]
    list_descending: bool = True
    left_width: int = 52  # percent of the screen, with the tree
    list_width: int = 62  # ... with the flat list (a table wants more room; wider makes the
    # detail pane wrap more, and a cursor move in the list measurably slower at 70)
    #: binding id -> its keys, as MEMVAULT_KEYMAP gives them (which overrides these per id)
    keymap: dict[str, str] = field(default_factory=dict)
    #: DecayConfig's fields this file sets (the CORTEXGRAPH_* variables override them)
    decay: dict[str, Any] = field(default_factory=dict)


@dataclass
class Loaded:
    settings: Settings
    notice: str | None = None  # what was wrong with the file, if anything
    extra: dict[str, Any] | None = None  # keys this version does not know (kept on save)


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    if env.get(ENV):
        return Path(env[ENV]).expanduser()
    from platformdirs import user_config_path

    return user_config_path("memvault", appauthor=False)


def settings_path(env: Mapping[str, str] | None = None) -> Path:
    return config_dir(env) / FILE


def _valid(name: str, value: Any) -> bool:
    if name == "theme":
        return value is None or (isinstance(value, str) and 0 < len(value) <= 64)
    if name == "sort":
        return value in SORTS
    if name == "mode":
        return value in MODES
    if name == "view":
        return value in VIEWS
    if name == "list_sort":
        return value in LIST_SORTS
    if name in ("show_content", "list_descending"):
        return isinstance(value, bool)
    if name in ("left_width", "list_width"):
        return type(value) is int and LEFT_MIN <= value <= LEFT_MAX
    if name == "keymap":
        return isinstance(value, dict) and all(
            isinstance(k, str) and isinstance(v, str) and k.strip() and v.strip()
            for k, v in value.items())
    if name == "decay":
        from .configured import decay_problem

        return isinstance(value, dict) and decay_problem(value) is None
    return False


def load(path: Path | None = None) -> Loaded:
    """The settings in ``path`` (default: :func:`settings_path`); defaults when there is no
    file; defaults plus a notice for what cannot be used."""
    path = settings_path() if path is None else path
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Loaded(Settings())
    except OSError as exc:
        return Loaded(Settings(), f"cannot read the settings {path}: {exc.strerror or exc}; "
                                  "using the defaults")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        return Loaded(Settings(), f"the settings {path} are not valid JSON ({exc}); using the "
                                  "defaults (the file is rewritten when a setting changes)")
    if not isinstance(data, dict):
        return Loaded(Settings(), f"the settings {path} are not a JSON object; using the "
                                  "defaults")
    settings = Settings()
    known = {f.name for f in fields(Settings)}
    bad = []
    for name, value in data.items():
        if name not in known:
            continue
        if _valid(name, value):
            setattr(settings, name, value)
        else:
            bad.append(name)
    extra = {k: v for k, v in data.items() if k not in known}
    notice = None
    if bad:
        notice = (f"the settings {path}: {', '.join(sorted(bad))} "
                  f"{'has a value' if len(bad) == 1 else 'have values'} this version does not "
                  "accept; using the default there")
    return Loaded(settings, notice, extra or None)


def save(settings: Settings, path: Path | None = None,
         extra: dict[str, Any] | None = None) -> None:
    """Write ``settings`` (and the unknown keys ``extra``) to ``path`` atomically, mode 0600.
    Raises OSError when the folder cannot be written."""
    path = settings_path() if path is None else path
    make_folders(path.parent)
    data = {**(extra or {}), **asdict(settings)}
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    replace_file(path, text.encode("utf-8"), ".settings-")
