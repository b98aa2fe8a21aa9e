"""Control characters from a vault never reach a terminal or a commit subject raw: C0 (but
newline and tab), DEL and C1, ESC among them, are shown as visible escapes, while the stored
content, ``--json`` and ``log --jsonl`` keep the exact text."""

from __future__ import annotations

import json
import re

import pytest
from cli_support import cli_env, run, vdir  # noqa: F401 (fixtures)

from core import Memory
from core.textutil import neutralise_controls, neutralise_line

#: Every kind: an OSC title change ended by BEL, clear screen, a C1 CSI, DEL, backspace, CR.
HOSTILE = ("title\x1b]0;pwned\x07 clear\x1b[2J csi\x9b31m del\x7f back\x08 cr\rend\n"
           "second\tline \x85nel \x1f")
TAG = "tag\x1b[31m"
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # what must never be printed
CONTROLS = [chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0))]


def test_neutralise_controls_shows_every_control_as_a_visible_escape():
    for char in CONTROLS:
        shown = neutralise_controls(char)
        if char in "\n\t":
            assert shown == char
        else:
            assert not RAW.search(shown) and shown.startswith("\\") and shown.isascii()
        line = neutralise_line(char)
        assert not RAW.search(line) and "\n" not in line and "\t" not in line
    assert neutralise_controls("\x1b[2J") == "\\x1b[2J"
    assert neutralise_controls("a\x9bb\x7fc\rd") == "a\\x9bb\\x7fc\\rd"
    assert neutralise_line("one\ntwo\tthree") == "one\\ntwo\\tthree"
    assert neutralise_controls(neutralise_controls(HOSTILE)) == neutralise_controls(HOSTILE)
    text = "Zürich 日本 ✓ “quoted” \u00a0nbsp"
    assert neutralise_controls(text) is text  # nothing to do: no copy


def _vault_with_hostile_memory(run):
    memory_id = run.add(HOSTILE, "--tag", TAG, "--entity", "ent\x1b[1m",
                        "--source", "src\x9b", "--context", "ctx\x07")
    other = run.add("a plain memory about the title of something")
    run.ok("relate", memory_id, other, "rel\x1b[5m", "--force")
    return memory_id, other


def _assert_clean(text: str) -> None:
    found = RAW.search(text)
    assert found is None, f"raw {found.group()!r} at {found.start()}: {text[:200]!r}"


def test_human_output_of_every_verb_has_no_raw_controls(run, vdir):
    memory_id, other = _vault_with_hostile_memory(run)
    outputs = []
    for argv in (["list"], ["show", memory_id], ["show", other], ["touch", memory_id],
                 ["history", memory_id], ["lineage", memory_id], ["log"],
                 ["suggest-split", memory_id], ["split-candidates"], ["recall", "title"],
                 ["gist", memory_id], ["stats"], ["archive", memory_id],
                 ["unarchive", memory_id]):
        code, out, err = run(*argv)
        assert code == 0, (argv, err)
        outputs.append((argv, out + err))
    for argv, text in outputs:
        _assert_clean(text)
    shown = dict((a[0] + (a[1] if len(a) > 1 else ""), t) for a, t in outputs)
    assert "title\\x1b]0;pwned\\x07" in shown["show" + memory_id]  # visible, not dropped
    assert "tag\\x1b[31m" in shown["show" + memory_id]
    assert "rel\\x1b[5m" in shown["show" + other]


def test_json_and_the_file_keep_the_exact_text(run, vdir):
    memory_id, _ = _vault_with_hostile_memory(run)
    code, out, err = run("show", memory_id, "--json")
    assert code == 0, err
    _assert_clean(out)
    shown = json.loads(out)
    assert shown["content"] == HOSTILE and shown["meta"]["tags"] == [TAG]
    assert shown["meta"]["source"] == "src\x9b" and shown["entities"] == ["ent\x1b[1m"]
    on_disk = Memory.model_validate_json((vdir / "memories" / f"{memory_id}.json").read_bytes())
    assert on_disk.content == HOSTILE and on_disk.meta.context == "ctx\x07"
    for argv in (["list", "--json"], ["log", "--jsonl"]):
        code, out, _ = run(*argv)
        _assert_clean(out)
        text = out if argv[0] == "list" else "[" + ",".join(out.splitlines()) + "]"
        assert HOSTILE in _strings(json.loads(text))


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_commit_subjects_have_no_raw_controls(run, vdir, git_tools):
    memory_id, _ = _vault_with_hostile_memory(run)
    run.ok("touch", memory_id)
    subjects = git_tools.run(vdir, "log", "--format=%s")
    _assert_clean(subjects)
    assert "title\\x1b]0;pwned\\x07" in subjects and "rel\\x1b[5m" in subjects


def test_file_names_and_paths_in_messages_are_neutralised(run, vdir, tmp_path):
    run.add("x")
    (vdir / "memories" / "bad\x1b[2Jname.json").write_bytes(b"{}")
    code, out, err = run("list")
    assert code == 0 and "bad\\x1b[2Jname.json" in err
    _assert_clean(out + err)
    code, out, err = run("list", "--vault", str(tmp_path / "no\x1b[2Jvault"), vault=False)
    assert code == 1 and "no\\x1b[2Jvault" in err
    _assert_clean(out + err)


def test_colours_survive_on_a_terminal(run, monkeypatch):
    memory_id, _ = _vault_with_hostile_memory(run)
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = run.ok("show", memory_id)
    assert "\x1b[" in out  # rich's own styles get through...
    for raw in ("\x1b]0;pwned", "\x1b[2J", "\x9b", "\x7f", "\x08", "\r", "\x1b[31m"):
        assert raw not in out  # ...the memory's sequences do not
    assert "\\x1b[2J" in out


@pytest.mark.parametrize("text", ["\x1b[2J", "x\x9by", "a\x00b"])
def test_first_words_in_subjects_is_one_clean_line(text):
    from core.vault import first_words

    assert not RAW.search(first_words(text + " more words\nand a line"))
