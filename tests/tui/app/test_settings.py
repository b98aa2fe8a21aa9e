"""tui/app/settings.py: the app's settings file (defaults when missing, defaults plus a notice
when unreadable or wrong, unknown keys kept, written atomically with mode 0600 in
$MEMVAULT_CONFIG_DIR or the user's config folder)."""

from __future__ import annotations

import json
import os
import stat

import pytest

from tui.app import settings as s


@pytest.fixture
def config(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    monkeypatch.setenv(s.ENV, str(folder))
    return folder


def test_the_folder_is_the_env_var_or_the_users_config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(s.ENV, str(tmp_path / "x"))
    assert s.settings_path() == tmp_path / "x" / "settings.json"
    monkeypatch.delenv(s.ENV)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert s.settings_path() == tmp_path / "xdg" / "memvault" / "settings.json"


def test_no_file_is_the_defaults_without_a_notice(config):
    loaded = s.load()
    assert loaded.settings == s.Settings() and loaded.notice is None
    assert not config.exists()  # reading writes nothing


def test_saved_settings_come_back_and_the_file_is_private_and_pretty(config):
    chosen = s.Settings(theme="gruvbox", sort="created", mode="band", show_content=True,
                        view="list", list_sort="tags", list_descending=False, left_width=40,
                        list_width=76)
    s.save(chosen)
    path = config / "settings.json"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert path.read_text().startswith('{\n  "decay": {},\n  "keymap": {},\n  "left_width": 40,')
    assert s.load() == s.Loaded(chosen)
    assert [p.name for p in config.iterdir()] == ["settings.json"]  # no temp file left


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe", b"[1, 2]", b"null", b""])
def test_a_file_that_is_not_a_json_object_gives_the_defaults_and_a_notice(config, content):
    config.mkdir()
    (config / "settings.json").write_bytes(content)
    loaded = s.load()
    assert loaded.settings == s.Settings()
    assert loaded.notice is not None and "using the defaults" in loaded.notice


def test_an_unreadable_file_gives_the_defaults_and_a_notice(config):
    config.mkdir()
    (config / "settings.json").mkdir()  # a folder where the file should be
    loaded = s.load()
    assert loaded.settings == s.Settings() and "cannot read" in loaded.notice


def test_a_bad_value_falls_back_for_that_key_only_and_unknown_keys_are_kept(config):
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({
        "sort": "created", "mode": "nonsense", "left_width": 5, "show_content": "yes",
        "list_width": True, "future_key": {"a": 1}}))
    loaded = s.load()
    assert loaded.settings.sort == "created"
    assert loaded.settings.mode == s.Settings().mode
    assert loaded.settings.left_width == 52 and loaded.settings.list_width == 62
    assert loaded.settings.show_content is False
    assert "left_width, list_width, mode, show_content" in loaded.notice
    s.save(loaded.settings, extra=loaded.extra)
    data = json.loads((config / "settings.json").read_text())
    assert data["future_key"] == {"a": 1} and data["mode"] == "status_tag"


def test_a_folder_that_cannot_be_written_raises_oserror(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(s.ENV, str(blocker / "config"))
    with pytest.raises(OSError):
        s.save(s.Settings())
