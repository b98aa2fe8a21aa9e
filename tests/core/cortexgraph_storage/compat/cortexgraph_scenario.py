"""The calls the driver makes, in order, on each backend: every CortexGraph 1.2.1 tool function
(save, search, unified search, touch, gc, promote, open, relations, read_graph, cluster,
consolidate, auto-recall) and the web API's storage endpoints, with good and bad arguments.

A step's ``call(ctx)`` gets the ids earlier steps kept (``keep``: a name, ``pick``: what of the
result to keep); ``advance`` moves the clock (seconds) before the call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DAY = 86_400
MISSING = "00000000-0000-4000-8000-000000000000"  # a well-formed id no memory has


@dataclass(frozen=True)
class Step:
    tool: str
    label: str
    call: Callable[[dict[str, Any]], Any]
    advance: int = 60
    keep: str | None = None
    pick: Callable[[Any], Any] = lambda result: result


def tools() -> Any:
    import cortexgraph.tools as t
    import cortexgraph.web.api as web

    return t, web


NOTES = [
    ("The staging database lives on db-2 and is restored from production every night at two "
     "so the nightly tests wait for the restore flag", ["infra", "db"], None),
    ("The staging database lives on db-2 and is restored from production every night at three "
     "so the nightly tests wait for the restore flag", ["infra", "db"], None),
    ("Alice prefers tabs over spaces in Python code reviews and asks for type hints",
     ["style"], ["Alice"]),
    ("IMPORTANT: never deploy on Fridays after four, the on-call rotation is thin",
     ["deploy", "policy"], None),
    ("The search service uses bm25 with a decay score and returns the ten best hits",
     ["search"], None),
    ("Bob owns the billing exporter; it runs hourly and writes CSV files to the archive bucket",
     ["billing"], ["Bob"]),
    ("Remember: the VPN certificate expires on March 3rd and must be renewed by the infra team",
     ["infra", "security"], None),
    ("Lunch order for the team offsite: twelve sandwiches, four salads and a lot of coffee",
     [], None),
    ("The search service uses bm25 with a decay score and returns the ten best hits first",
     ["search"], None),
    ("Carol decided that the mobile app will drop support for Android 9 in the spring release",
     ["mobile", "decision"], ["Carol"]),
]


def _saves() -> list[Step]:
    steps = []
    for i, (content, tags, entities) in enumerate(NOTES):
        kwargs: dict[str, Any] = {"tags": tags or None}
        if entities:
            kwargs["entities"] = entities
        if i == 3:
            kwargs.update(source="slack #ops", context="incident review", strength=1.8)
        if i == 5:
            kwargs["meta"] = {"project": "billing", "priority": 2}
        steps.append(Step("save", f"save note {i}",
                          lambda ctx, c=content, k=kwargs: tools()[0].save.save_memory(c, **k),
                          keep=f"m{i}", pick=lambda r: r["memory_id"]))
    bad = [
        ("empty content", lambda ctx: tools()[0].save.save_memory("")),
        ("strength out of range", lambda ctx: tools()[0].save.save_memory("x y z", strength=3.0)),
        ("a tag with spaces", lambda ctx: tools()[0].save.save_memory("x y z", tags=["no spaces allowed"])),
        ("too long source", lambda ctx: tools()[0].save.save_memory("x y z", source="s" * 600)),
    ]
    steps += [Step("save", label, call) for label, call in bad]
    return steps


def _ids(ctx: dict[str, Any], *names: str) -> list[str]:
    return [ctx[n] for n in names if n in ctx]


def _searches() -> list[Step]:
    search = lambda **kw: (lambda ctx: tools()[0].search.search_memory(**kw))  # noqa: E731
    cases = [
        {}, {"query": "database"}, {"query": "search service"}, {"query": "nothing matches this"},
        {"tags": ["infra"]}, {"tags": ["infra", "search"]}, {"query": "deploy", "top_k": 1},
        {"status": "archived"}, {"status": ["active", "promoted"]}, {"window_days": 1},
        {"min_score": 0.5}, {"query": "team", "page": 1, "page_size": 10},
        {"query": "the", "preview_length": 20}, {"include_review_candidates": False,
                                                 "query": "restored"},
        {"status": "bogus"}, {"top_k": 0}, {"tags": ["bad tag!"]},
    ]
    return [Step("search", f"search {kw}", search(**kw)) for kw in cases]


def _unified() -> list[Step]:
    unified = lambda **kw: (lambda ctx: tools()[0].search_unified.search_unified(**kw))  # noqa: E731
    cases = [{"query": "database"}, {"query": "search", "limit": 3}, {"tags": ["infra"]},
             {"query": "deploy", "stm_weight": 0.5, "ltm_weight": 1.0}, {},
             {"query": "bm25", "page": 1, "page_size": 10}, {"limit": 0}]
    return [Step("search_unified", f"unified {kw}", unified(**kw)) for kw in cases]


def _touches(names: list[str], boost: bool = False) -> list[Step]:
    return [Step("touch", f"touch {n}{' boost' if boost else ''}",
                 lambda ctx, n=n: tools()[0].touch.touch_memory(ctx[n], boost_strength=boost))
            for n in names]


def _opens() -> list[Step]:
    o = lambda ids, **kw: (lambda ctx: tools()[0].open_memories.open_memories(  # noqa: E731
        ids(ctx), **kw))
    return [
        Step("open", "open one", o(lambda ctx: ctx["m0"])),
        Step("open", "open several", o(lambda ctx: _ids(ctx, "m0", "m2", "m5"))),
        Step("open", "open with a missing one", o(lambda ctx: [ctx["m1"], MISSING])),
        Step("open", "open without relations", o(lambda ctx: [ctx["m0"]], include_relations=False)),
        Step("open", "open without scores", o(lambda ctx: [ctx["m3"]], include_scores=False)),
        Step("open", "open paged", o(lambda ctx: _ids(ctx, "m0", "m1", "m2"), page=1, page_size=2)),
        Step("open", "open a bad id", o(lambda ctx: "not-a-uuid")),
    ]


def _relations() -> list[Step]:
    rel = lambda a, b, kind, **kw: (lambda ctx: tools()[0].create_relation.create_relation(  # noqa: E731
        ctx.get(a, a), ctx.get(b, b), kind, **kw))
    return [
        Step("relations", "relate m0 -> m1", rel("m0", "m1", "related"), keep="r0",
             pick=lambda r: r.get("relation_id")),
        Step("relations", "relate m2 -> m5 with metadata",
             rel("m2", "m5", "supports", strength=0.5, metadata={"why": "review"})),
        Step("relations", "relate m4 -> m8", rel("m4", "m8", "similar_to")),
        Step("relations", "relate m3 -> m6", rel("m3", "m6", "causes")),
        Step("relations", "relate m7 -> m9", rel("m7", "m9", "related")),
        Step("relations", "the same relation again", rel("m0", "m1", "related")),
        Step("relations", "from a missing memory", rel(MISSING, "m1", "related")),
        Step("relations", "to a missing memory", rel("m1", MISSING, "related")),
        Step("relations", "strength out of range", rel("m1", "m2", "related", strength=2.0)),
        Step("relations", "a bad id", rel("not-a-uuid", "m2", "related")),
    ]


def _graphs() -> list[Step]:
    g = lambda **kw: (lambda ctx: tools()[0].read_graph.read_graph(**kw))  # noqa: E731
    cases = [{}, {"status": "all"}, {"status": "archived"}, {"status": "promoted"},
             {"include_scores": False}, {"limit": 3}, {"page": 1, "page_size": 10},
             {"status": "nonsense"}, {"limit": 0}]
    return [Step("read_graph", f"read_graph {kw}", g(**kw)) for kw in cases]


def _clusters() -> list[Step]:
    c = lambda **kw: (lambda ctx: tools()[0].cluster.cluster_memories(**kw))  # noqa: E731
    cases = [{}, {"threshold": 0.3}, {"threshold": 0.5, "max_cluster_size": 3},
             {"find_duplicates": True}, {"find_duplicates": True, "duplicate_threshold": 0.6},
             {"threshold": 1.5}]
    return [Step("cluster", f"cluster {kw}", c(**kw)) for kw in cases]


def _consolidations() -> list[Step]:
    c = lambda **kw: (lambda ctx: tools()[0].consolidate.consolidate_memories(  # noqa: E731
        **{k: (v(ctx) if callable(v) else v) for k, v in kw.items()}))
    first_cluster = lambda ctx: ctx.get("cluster", "missing")  # noqa: E731
    return [
        Step("consolidate", "auto-detect preview", c(auto_detect=True, mode="preview"),
             keep="cluster", pick=lambda r: (r.get("candidates") or [{}])[0].get("cluster_id")),
        Step("consolidate", "preview one cluster", c(cluster_id=first_cluster, mode="preview")),
        Step("consolidate", "a missing cluster", c(cluster_id="no-such-cluster")),
        Step("consolidate", "no cluster, no auto-detect", c()),
        Step("consolidate", "a bad mode", c(auto_detect=True, mode="explode")),
        Step("consolidate", "link one cluster", c(cluster_id=first_cluster, mode="link")),
        Step("consolidate", "apply one cluster", c(cluster_id=first_cluster, mode="apply")),
        Step("consolidate", "auto-detect apply", c(auto_detect=True, mode="apply",
                                                   cohesion_threshold=0.5)),
    ]


def _promotions() -> list[Step]:
    p = lambda **kw: (lambda ctx: tools()[0].promote.promote_memory(  # noqa: E731
        **{k: (ctx[v] if k == "memory_id" and v in ctx else v) for k, v in kw.items()}))
    return [
        Step("promote", "auto-detect, dry run", p(auto_detect=True, dry_run=True)),
        Step("promote", "one by id", p(memory_id="m7")),
        Step("promote", "one, dry run, forced", p(memory_id="m6", dry_run=True, force=True)),
        Step("promote", "one, forced", p(memory_id="m6", force=True)),
        Step("promote", "the same again", p(memory_id="m6", force=True)),
        Step("promote", "a missing one", p(memory_id=MISSING)),
        Step("promote", "neither id nor auto-detect", p()),
        Step("promote", "a bad target", p(memory_id="m5", target="notion")),
    ]


def _gcs(label: str) -> list[Step]:
    gc = lambda **kw: (lambda ctx: tools()[0].gc.gc(**kw))  # noqa: E731
    return [
        Step("gc", f"{label}: dry run", gc()),
        Step("gc", f"{label}: dry run, archive", gc(archive_instead=True)),
        Step("gc", f"{label}: archive at most one", gc(dry_run=False, archive_instead=True,
                                                        limit=1)),
        Step("gc", f"{label}: delete", gc(dry_run=False)),
        Step("gc", f"{label}: bad limit", gc(limit=0)),
    ]


def _recalls() -> list[Step]:
    r = lambda msg: (lambda ctx: tools()[0].auto_recall_tool.auto_recall_process_message(msg))  # noqa: E731
    messages = ["How is the staging database restored every night before the nightly tests?",
                "the VPN certificate expires on March 3rd and must be renewed by the infra team",
                "Carol decided the mobile app will drop support for Android 9 in the spring release",
                "hi", "", "Tell me about Alice and her Python code review preferences please"]
    return [Step("auto_recall", f"auto-recall {m[:30]!r}", r(m), advance=400) for m in messages]


def _web() -> list[Step]:
    def web_call(name: str, *args: Any, **kwargs: Any) -> Callable[[dict[str, Any]], Any]:
        def call(ctx: dict[str, Any]) -> Any:
            web = tools()[1]
            real = [ctx.get(a, a) if isinstance(a, str) else a for a in args]
            return getattr(web, name)(*real, **kwargs)
        return call

    def filtered(**kw: Any) -> Callable[[dict[str, Any]], Any]:
        def call(ctx: dict[str, Any]) -> Any:
            from cortexgraph.storage.models import GraphFilter

            return tools()[1].get_filtered_graph(GraphFilter(**kw))
        return call

    def save_to_vault(name: str) -> Callable[[dict[str, Any]], Any]:
        def call(ctx: dict[str, Any]) -> Any:
            web = tools()[1]
            return web.save_to_vault(ctx.get(name, name), web.SaveToVaultRequest(folder="web"))
        return call

    return [
        Step("web", "GET /memories", web_call("list_memories")),
        Step("web", "GET /memories?limit=2&offset=1", web_call("list_memories", 2, 1)),
        Step("web", "GET /memories?status=archived", web_call("list_memories", status="archived")),
        Step("web", "GET /memories?status=promoted", web_call("list_memories", status="promoted")),
        Step("web", "GET /memories?search=database", web_call("list_memories", search="database")),
        Step("web", "GET /memories?search=the&limit=2", web_call("list_memories", 2, search="the")),
        Step("web", "GET /memories/{m2}", web_call("get_memory", "m2")),
        Step("web", "GET /memories/{missing}", web_call("get_memory", MISSING)),
        Step("web", "GET /memories/{m2}/relationships", web_call("get_memory_relationships", "m2")),
        Step("web", "GET /memories/{m5}/relationships", web_call("get_memory_relationships", "m5")),
        Step("web", "GET /memories/{missing}/relationships",
             web_call("get_memory_relationships", MISSING)),
        Step("web", "GET /graph", web_call("get_graph")),
        Step("web", "GET /graph?limit=2", web_call("get_graph", 2)),
        Step("web", "POST /graph/filtered tags", filtered(tags=["infra"])),
        Step("web", "POST /graph/filtered search", filtered(search_query="search")),
        Step("web", "POST /graph/filtered statuses", filtered(statuses=["active", "promoted",
                                                                        "archived"])),
        Step("web", "POST /graph/filtered min score", filtered(min_decay_score=0.3)),
        Step("web", "POST /graph/filtered entities", filtered(entities=["Carol"])),
        Step("web", "POST /memories/{m9}/save-to-vault", save_to_vault("m9")),
        Step("web", "POST /memories/{missing}/save-to-vault", save_to_vault(MISSING)),
    ]


def _aged(days: int, steps: list[Step]) -> list[Step]:
    first = steps[0]
    return [Step(first.tool, first.label, first.call, advance=days * DAY), *steps[1:]]


def steps() -> list[Step]:
    """The whole scenario: a fresh store filled, read every way, reinforced, related, clustered,
    consolidated, recalled, promoted, aged and collected, and read again after each kind of
    change."""
    out: list[Step] = []
    out += _saves()
    out += _searches() + _unified() + _opens() + _graphs() + _web()
    out += _touches(["m0", "m2", "m4", "m6"]) + _touches(["m6", "m2"], boost=True)
    out += _touches(["m6"] * 5) + [Step("touch", "touch a missing memory", lambda ctx: tools()[
        0].touch.touch_memory(MISSING)), Step("touch", "touch a bad id", lambda ctx: tools()[
            0].touch.touch_memory("not-a-uuid"))]
    out += _relations()
    out += _opens() + _graphs() + _web()
    out += _clusters()
    out += _consolidations()
    out += _opens() + _graphs() + _web() + _searches()
    out += _recalls()
    out += _promotions()
    out += _searches() + _unified() + _opens() + _web()
    out += _aged(10, _gcs("after 10 days"))
    out += [Step("promote", "auto-detect after 10 days",
                 lambda ctx: tools()[0].promote.promote_memory(auto_detect=True))]
    out += _graphs() + _web()
    out += _aged(30, _gcs("after 40 days"))
    out += _searches() + _unified() + _opens() + _graphs() + _web() + _clusters()
    return out
