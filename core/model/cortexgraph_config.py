"""CortexGraph 1.2.1's configured storage path, read as CortexGraph reads it, without importing
CortexGraph (it need not be installed).

CortexGraph (``cortexgraph/config.py``) decides where ``JSONLStorage()`` lives like this:

1. a configuration the program installed with ``cortexgraph.config.set_config(...)``, or the one
   it already read (``get_config()`` caches the first one it builds);
2. ``CORTEXGRAPH_STORAGE_PATH`` in the environment;
3. ``CORTEXGRAPH_STORAGE_PATH`` in the first ``.env`` file that exists of
   ``$XDG_CONFIG_HOME/cortexgraph/.env`` (``~/.config/cortexgraph/.env`` without
   ``XDG_CONFIG_HOME``) and ``./.env`` (only that first file is read; the environment wins over
   it, as ``load_dotenv`` does not override). memvault departs from CortexGraph here: it
   never reads ``./.env`` when the current folder is in a git work tree (a vault, a clone),
   where a remote can commit one;
4. its own default, ``<config dir>/jsonl``.

:func:`configured_storage_path` answers steps 1-3 (the path a person *configured*) and None
for step 4, so memvault's own default can follow. Values are expanded as CortexGraph expands
them (``$VARS`` then ``~``). Step 1 is read only when the program has imported
``cortexgraph.config`` itself; this module never imports it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

STORAGE_PATH_VAR = "CORTEXGRAPH_STORAGE_PATH"


def cortexgraph_config_dir(environ: Mapping[str, str]) -> Path:
    """CortexGraph's ``_get_config_dir``: ``$XDG_CONFIG_HOME/cortexgraph``, else
    ``~/.config/cortexgraph``."""
    xdg = environ.get("XDG_CONFIG_HOME")
    if xdg:
        return Path(xdg) / "cortexgraph"
    home = environ.get("HOME")
    return (Path(home) if home else Path.home()) / ".config" / "cortexgraph"


def env_file(environ: Mapping[str, str]) -> Path | None:
    """The one ``.env`` file CortexGraph loads: the first that exists of its config dir's and
    the current directory's; the current directory's only when no remote can have written it
    (:func:`remote_may_write`)."""
    config = cortexgraph_config_dir(environ) / ".env"
    if config.exists():
        return config
    here = Path(".env")
    if here.exists() and not remote_may_write(Path.cwd()):
        return here
    return None


def remote_may_write(folder: Path) -> bool:
    """``folder`` is in a git work tree (a vault, or any clone): a ``git pull`` or ``memvault
    sync`` writes there what a remote committed, so configuration is never read from it."""
    for at in (folder, *folder.parents):
        if os.path.lexists(at / ".git"):
            return True
    return False


def _expanded(value: str) -> Path:
    """CortexGraph's ``Config.expand_path``."""
    return Path(os.path.expanduser(os.path.expandvars(value)))


def _installed_config_path() -> Path | None:
    """Step 1: the configuration a running CortexGraph holds, when the program imported it and
    its storage path was set explicitly (by the environment or ``set_config``)."""
    module = sys.modules.get("cortexgraph.config")
    config = getattr(module, "_config", None) if module is not None else None
    if config is None or "storage_path" not in getattr(config, "model_fields_set", ()):
        return None
    return Path(config.storage_path)


def configured_storage_path(environ: Mapping[str, str] | None = None) -> Path | None:
    """The storage path configured for CortexGraph (steps 1-3 above), or None."""
    env = os.environ if environ is None else environ
    if environ is None and (installed := _installed_config_path()) is not None:
        return installed
    if STORAGE_PATH_VAR in env:  # set, even empty: a .env file does not override it
        return _expanded(env[STORAGE_PATH_VAR]) if env[STORAGE_PATH_VAR] else None
    found = env_file(env)
    if found is None:
        return None
    from dotenv import dotenv_values  # (here: only a default path without MEMVAULT_PATH needs it)

    value = dotenv_values(found).get(STORAGE_PATH_VAR)
    return _expanded(value) if value else None
