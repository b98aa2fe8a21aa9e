"""Reading a repository's HEAD and finding its git directory with plain file reads: no git
process and no GitPython import, for read-only views (``list``, ``show``) that must stay fast."""

from __future__ import annotations

from pathlib import Path

#: The object id git writes for "no object" (an unborn branch, a path that was absent)
ZERO_OID = "0" * 40


def find_git_dir(start: Path) -> tuple[Path, Path] | None:
    """(git dir, common dir) of the repository holding ``start``, or None. Follows a ``.git``
    file (``gitdir: ...``, as in a linked work tree or a submodule)."""
    for folder in (start, *start.parents):
        dot_git = folder / ".git"
        try:
            if dot_git.is_dir():
                git_dir = dot_git
            elif dot_git.is_file():
                text = dot_git.read_text().strip()
                if not text.startswith("gitdir: "):
                    return None
                git_dir = (folder / text[8:]).resolve()
            else:
                continue
            common = git_dir
            if (git_dir / "commondir").is_file():
                common = (git_dir / (git_dir / "commondir").read_text().strip()).resolve()
            return git_dir, common
        except OSError:
            return None
    return None


def read_head(git_dir: Path, common_dir: Path) -> str | None:
    """The commit HEAD points at; None when unborn or when the refs cannot be read this way
    (the caller may then ask git). Raises OSError when HEAD itself cannot be read."""
    text = (git_dir / "HEAD").read_text().strip()
    if not text.startswith("ref: "):
        return text
    ref = text[5:]
    for base in (git_dir, common_dir):
        candidate = base / ref
        if candidate.is_file():
            value = candidate.read_text().strip()
            if len(value) >= 40:
                return value
    packed = common_dir / "packed-refs"  # after `git gc` or `git pack-refs`
    if packed.is_file():
        for line in packed.read_text().splitlines():
            sha, _, name = line.partition(" ")
            if name == ref and len(sha) >= 40:
                return sha
    return None
