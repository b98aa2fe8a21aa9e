"""A realistic demo vault, built through core only: ``memvault demo [DIR] [--no-open]``.

About 180 memories (170 left after the merges and a deletion) that an assistant could have
gathered over half a year about one person: their coding preferences, a side project, the team
at work, CI, travel, cooking, reading and so on.
Ages and use counts are spread so scores run from fresh to forgettable; a few memories are
archived, a few promoted, one was edited, one deleted; three composite memories were split
(``core.ops.split.execute_split``) and three groups of near-duplicates merged
(``core.ops.consolidate.execute_consolidation``), so provenance and git history are real. Each
memory is about one subject (the data lists it whole, :mod:`tui.demo.content`), and the
relations the person made are listed there too, between memories of one subject. The last
day brings work for the app's wizards: a composite memory that ``split_candidates`` ranks
first, and near-duplicates that ``find_clusters`` groups at its default threshold; and for the
review inbox: an MCP client's add and archive and Claude's memory tool's update, made through
their doors and left unreviewed (:mod:`tui.demo.assistant`).

The history is replayed in time order: each week's new memories are one commit, each week's
uses another, and every commit carries the simulated date (``GIT_AUTHOR_DATE`` and
``GIT_COMMITTER_DATE`` while it is made), so ``history`` reads like a real half year. With a
fixed ``now`` and ``seed`` the memories, their ids and their dates are the same on every build
(the parts of a split and the result of a merge get fresh uuid4 ids from core).
"""

from .build import DemoReport, build_demo

__all__ = ["DemoReport", "build_demo"]
