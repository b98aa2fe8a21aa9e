"""The README's command-line example runs as written (bash, the installed ``memvault``, a vault in
tmp_path) and the documentation's links lead to files that exist."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def shell_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, flags=re.S)


def test_the_readme_command_line_example_runs(tmp_path: Path) -> None:
    block = next(b for b in shell_blocks((ROOT / "README.md").read_text())
                 if "memvault add" in b)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CORTEXGRAPH_", "MEMVAULT_"))}
    env.update(HOME=str(tmp_path), PATH=f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}",
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=str(tmp_path / "gitconfig"),
               XDG_CONFIG_HOME=str(tmp_path / ".config"))
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Prefers pytest with plain assert" in done.stdout   # the search found it
    assert "undid" in done.stdout                               # and the archive was taken back
    assert (tmp_path / "memories" / ".git").is_dir()


#: run from an unpacked sdist, which leaves the screenshots (9 MB) out: links to them are not
#: checked there (they are in a checkout)
FROM_SDIST = (ROOT / "PKG-INFO").is_file() and not (ROOT / "screenshots").is_dir()
REPOSITORY_FILE = re.compile(r"^https://(?:github\.com/memvault/memvault/blob/main|"
                             r"raw\.githubusercontent\.com/memvault/memvault/main)/(.+)$")


def test_the_readme_links_are_absolute_and_lead_to_files_of_the_repository() -> None:
    """The package index shows the README away from the repository: a relative link or image
    would lead nowhere there. Each points into the repository, at a file that exists (the
    screenshots are not in the sdist: checked in a checkout)."""
    targets = re.findall(r"\]\(([^)\s]+)\)", (ROOT / "README.md").read_text())
    assert targets and [t for t in targets if "://" not in t] == []
    in_repo = [m.group(1).split("#")[0] for t in targets if (m := REPOSITORY_FILE.match(t))]
    assert any(p.startswith("screenshots/") for p in in_repo)
    assert any(p.startswith("docs/") for p in in_repo)
    missing = [p for p in in_repo if not (ROOT / p).exists()
               and not (FROM_SDIST and p.startswith("screenshots/"))]
    assert missing == []


def test_every_link_in_the_docs_leads_to_a_file() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = [f"{page.relative_to(ROOT)} -> {target}"
              for page in pages for target in LINK.findall(page.read_text())
              if "://" not in target and not (page.parent / target).exists()
              and not (FROM_SDIST and "screenshots/" in target)]
    assert broken == []


def test_a_bare_memvault_in_the_readme_comes_after_it_is_put_on_the_path() -> None:
    """After the first command (a venv), ``memvault`` is not on the PATH: the README says to
    activate it before its first block that calls a bare ``memvault``, and a client that starts
    the program is given its absolute path."""
    text = (ROOT / "README.md").read_text()
    first = next(b for b in shell_blocks(text) if re.search(r"^memvault ", b, flags=re.M))
    before = text[:text.index(first)].removesuffix("```sh\n")
    assert "source .venv/bin/activate" in before[before.rindex("```"):]
    (claude,) = [line for line in text.splitlines() if line.startswith("claude mcp add")]
    assert '"$PWD/.venv/bin/memvault" mcp' in claude


def test_a_project_scope_command_writes_no_home_folder() -> None:
    """A project's ``.mcp.json`` is committed: the command that writes it leaves ``${HOME}``
    for the client to expand (single quotes), never a path the shell expands to yours."""
    lines = [line for page in sorted((ROOT / "docs").glob("*.md"))
             for line in page.read_text().splitlines()
             if line.startswith("claude mcp add") and "--scope project" in line]
    assert lines
    for line in lines:
        unquoted = re.sub(r"'[^']*'", "", line)
        assert not re.search(r"~|\$HOME|\$\{HOME\}|/home/|/Users/", unquoted), line


def test_a_readme_section_a_page_names_exists() -> None:
    headings = set(re.findall(r"^#+ (.+)$", (ROOT / "README.md").read_text(), flags=re.M))
    named = [(page.name, section) for page in sorted((ROOT / "docs").glob("*.md"))
             for section in re.findall(r'"([^"]+)"\s+in the README', page.read_text())]
    assert [n for n in named if n[1] not in headings] == []
