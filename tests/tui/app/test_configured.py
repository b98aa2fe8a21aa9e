"""What the app takes from its settings file and the environment (tui/app/configured.py): an
environment variable that is set overrides the file's value; a typed value is checked first."""

from __future__ import annotations

import json

import pytest

from tui.app.configured import (decay_config, keymap_in_effect, parse_keymap, typed_decay,
                                typed_keymap)
from tui.app.settings import load


def test_the_files_decay_settings_with_the_environments_over_them():
    config = decay_config({"forget_threshold": 0.2, "decay_model": "exponential"},
                          {"CORTEXGRAPH_FORGET_THRESHOLD": "0.3"})
    assert config.forget_threshold == 0.3 and config.decay_model == "exponential"
    assert decay_config({}, {}).forget_threshold == 0.05


def test_a_typed_decay_value_is_checked_and_empty_means_the_default():
    assert typed_decay("promote_use_count", " 7 ", {}) == {"promote_use_count": 7}
    assert typed_decay("promote_use_count", "", {"promote_use_count": 7}) == {}
    with pytest.raises(ValueError, match="whole number"):
        typed_decay("promote_use_count", "2.5", {})
    with pytest.raises(ValueError, match="forget threshold must be in 0..1"):
        typed_decay("forget_threshold", "1.5", {})


def test_the_keymap_typed_names_what_is_wrong():
    assert typed_keymap("memvault.archive=A; memvault.delete=D,ctrl+d",
                        {"memvault.archive", "memvault.delete"}) == {
        "memvault.archive": "A", "memvault.delete": "D,ctrl+d"}
    with pytest.raises(ValueError, match="'memvault.nope'"):
        typed_keymap("memvault.nope=A", {"memvault.archive"})
    assert typed_keymap("", set()) == {}
    assert keymap_in_effect({"memvault.archive": "A", "memvault.delete": "D"},
                            {"MEMVAULT_KEYMAP": "memvault.delete=X"}) == {
        "memvault.archive": "A", "memvault.delete": "X"}
    assert parse_keymap("a=b;;c") == {"a": "b"}


def test_a_file_with_a_bad_decay_value_gives_the_default_and_a_notice(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"decay": {"forget_threshold": 5}, "keymap": {"x": 1},
                                "mode": "tag"}))
    loaded = load(path)
    assert loaded.settings.decay == {} and loaded.settings.keymap == {}
    assert loaded.settings.mode == "tag"
    assert loaded.notice is not None and "decay" in loaded.notice and "keymap" in loaded.notice
    path.write_text(json.dumps({"decay": {"forget_threshold": 0.2}}))
    assert load(path).settings.decay == {"forget_threshold": 0.2}
