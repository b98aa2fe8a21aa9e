"""The ``memvault`` program's entry point: ``memvault --version`` answers from the package's
metadata before anything else is imported (the command line, click and core take several times
as long as the answer), and every other command runs :func:`tui.cli.main`."""

from __future__ import annotations

import sys


def main() -> int:
    """The console script: the version at once, else the command line."""
    if sys.argv[1:] == ["--version"]:
        from importlib.metadata import PackageNotFoundError, version

        try:
            print(f"memvault {version('memvault')}")
        except PackageNotFoundError:  # pragma: no cover - a source tree without metadata
            print("memvault unknown")
        return 0
    from tui.cli import main as run

    return run()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
