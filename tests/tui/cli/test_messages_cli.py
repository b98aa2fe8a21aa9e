"""What the command line says when a person mistypes: a verb it has not got (with the verbs
meant), and ``-h`` offering ``--allow-secret`` only on the verbs that write."""

from __future__ import annotations

from tui.cli.verbs import READING_VERBS, VERBS

from cli_support import cli_env, run, vdir  # noqa: F401  (fixtures)


def test_a_mistyped_verb_names_the_verb_meant(run):
    err = run.fails("serach", "editor", code=2)
    assert "no verb 'serach'; did you mean 'search'?" in err
    err = run.fails("histroy", code=2)
    assert "did you mean 'history'?" in err
    err = run.fails("frobnicate", code=2)  # nothing close: click's own words
    assert "No such command 'frobnicate'" in err and "did you mean" not in err


def test_allow_secret_is_offered_only_by_verbs_that_write(run):
    assert READING_VERBS <= set(VERBS)
    for name in ("search", "list", "show", "history", "stats"):
        assert "--allow-secret" not in run.ok(name, "-h")
    for name in ("add", "edit", "split", "import"):
        assert "--allow-secret" in run.ok(name, "-h")
    err = run.fails("list", "--allow-secret", code=2)
    assert "--allow-secret" in err
