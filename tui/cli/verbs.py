"""The table of ``memvault`` verbs: which module of :mod:`tui.cli` defines each one and the line
of help the overview, ``memvault -h`` and the verb's own ``-h`` show. The root group reads it to
load a verb's module only when that verb runs (``memvault add`` never imports the lifecycle,
migration or app code), so nothing here imports anything."""

from __future__ import annotations

#: verb -> (module under tui.cli, one line of help), in the order the overview lists them
VERBS: dict[str, tuple[str, str]] = {
    "init": ("records", "create the vault (and its git repository) if it does not exist"),
    "add": ("records", "add a memory; prints only its id"),
    "list": ("records", "list memories (filter, sort, --json)"),
    "search": ("search", "ranked search: words, \"phrases\", prefix*, tag:, entity:, status:; "
                         "bm25 with the decay score, snippets"),
    "reindex": ("search", "build the search index anew from the files (it is derived: deleting it "
                          "loses nothing)"),
    "show": ("records", "one memory: fields, score, time until forgotten, relations"),
    "touch": ("records", "reinforce memories (use count + 1, last used = now), one commit"),
    "edit": ("edit", "edit a memory in $EDITOR as plain text (or --content/--gist/--tag/"
                     "--entity/--strength), one commit; unchanged writes nothing"),
    "pin": ("labels", "pin memories: gc never deletes or archives them, one commit"),
    "unpin": ("labels", "unpin memories, one commit"),
    "archive": ("records", "archive memories"),
    "unarchive": ("records", "make archived memories active again"),
    "tag": ("labels", "add tags to memories (--tag T, repeatable), one commit"),
    "untag": ("labels", "take tags off memories (--tag T, repeatable), one commit"),
    "promote": ("labels", "mark active memories promoted (they stop decaying out of search), "
                          "one commit"),
    "delete": ("records", "delete memories and their relations (asks first unless --yes)"),
    "restore": ("records", "bring back a deleted memory or an earlier version"),
    "history": ("records", "a memory's life from git, also after deletion"),
    "relate": ("records", "create a typed relation between two memories"),
    "gc": ("records", "delete (or archive) active memories below the forget threshold"),
    "stats": ("records", "counts, scores, relation types"),
    "undo": ("undo", "revert the last operation in one new commit (--list: what can be undone)"),
    "redo": ("undo", "make again the operation the last undo reverted"),
    "inbox": ("inbox", "what the assistant wrote since you last looked (accept [ID... | --all], "
                       "reject ID)"),
    "split": ("lifecycle", "decompose a memory into atomic ones (--part per part), one commit"),
    "split-candidates": ("lifecycle", "memories that look composite, with the reasons"),
    "suggest-split": ("lifecycle", "a draft of parts for a memory (to edit and pass to split)"),
    "consolidate": ("lifecycle", "merge memories into one, one commit"),
    "clusters": ("lifecycle", "groups of similar memories, with a suggested action"),
    "lineage": ("lifecycle", "where a memory came from and what was made of it"),
    "recall": ("gists", "the best-matching memories as a gist-first context block "
                        "(--budget TOKENS)"),
    "gist": ("gists", "make a memory's gist anew (--level light|moderate|aggressive)"),
    "backfill-gists": ("gists", "give every memory without a gist one, in one commit (--dry-run)"),
    "tui": ("app", "the terminal app on the vault (what `memvault` alone runs on a terminal)"),
    "demo": ("app", "build a demo vault (DIR, default a new temporary folder) and open the app "
                    "on it"),
    "migrate": ("migrate", "bring a CortexGraph JSONL store into the vault (--from jsonl DIR), "
                           "one commit"),
    "migrate-layout": ("layout", "move the memories into the other layout (--to sharded: "
                                 "memories/ab/{id}.json, for big vaults; --to flat), one commit"),
    "export": ("migrate", "write the vault as CortexGraph JSONL files (--format jsonl DIR), "
                          "or for the MCP memory server or basic-memory (--to mcp-memory FILE, "
                          "--to basic-memory DIR)"),
    "import": ("interchange", "bring memories from another memory server in, one commit "
                              "(--from mcp-memory FILE, --from basic-memory DIR, --from mem0 "
                              "FILE; --dry-run, --skip-bad)"),
    "import-markdown": ("migrate", "import tiered markdown memories (memory/YYYY-MM-DD.md, "
                                   "MEMORY.md)"),
    "log": ("migrate", "every change as an event, oldest first (--since REV, --jsonl)"),
    "scan": ("secrets", "find what looks like a secret in every version of every memory in "
                        "history (memory, commit, kind, place)"),
    "purge": ("secrets", "remove memories (and their relations) from ALL of history, for real "
                         "(asks first unless --yes; --dry-run)"),
    "secrets-policy": ("secrets", "show or set what a write does with a secret: refuse (default), "
                                  "redact or allow"),
    "mcp": ("mcp", "serve the vault to an assistant over MCP (stdio, or --http [HOST:]PORT with a "
                   "bearer token: `memvault mcp token [--rotate]`), with CortexGraph's tools "
                   "(--read-only)"),
    "sync": ("sync", "sync with the other machines through git (install, status, designate "
                     "MACHINE)"),
    "merge-driver": ("sync", "the memory-latest git merge driver (git runs it as "
                             "memvault-merge-driver)"),
}

#: the verbs that write no memory's text, so their ``-h`` offers no ``--allow-secret`` (it stays
#: on the root group: ``memvault --allow-secret history X`` still commits a person's edit)
READING_VERBS = frozenset({"list", "show", "search", "reindex", "history", "stats",
                           "split-candidates", "suggest-split", "clusters", "lineage", "recall",
                           "export", "log", "scan", "merge-driver"})

#: verb -> its line of help
VERB_HELP: dict[str, str] = {name: help_text for name, (_, help_text) in VERBS.items()}
