"""A realistic demo vault, built through core only: ``memvault demo [DIR] [--no-open]``.

About 180 memories (170 left after the merges and a deletion) that an assistant could have
gathered over half a year about one person: their coding preferences, a side project, the team
at work, CI, travel, cooking, reading and so on.
Ages and use counts are spread so scores run from fresh to forgettable; a few memories are
archived, a few promoted, one was edited, one deleted; three composite memories were split
(``core.ops.split.execute_split``) and three groups of near-duplicates merged
(``core.ops.consolidate.execute_consolidation``), so provenance and git history are real. The last
day brings work for the app's wizards: a composite memory that ``split_candidates`` ranks
first, and near-duplicates that ``find_clusters`` groups at its default threshold.

The history is replayed in time order: each week's new memories are one commit, each week's
uses another, and every commit carries the simulated date (``GIT_AUTHOR_DATE`` and
``GIT_COMMITTER_DATE`` while it is made), so ``history`` reads like a real half year. With a
fixed ``now`` and ``seed`` the memories, their ids and their dates are the same on every build
(the parts of a split and the result of a merge get fresh uuid4 ids from core).
"""

from __future__ import annotations

import contextlib
import os
import random
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from core import Memory, MemoryMetadata, MemoryStatus, Vault, VaultError
from core.ops.consolidate import execute_consolidation
from core.model.records import now_epoch
from core.ops.split import execute_split
from core.textutil import make_gist
from core.vault import Plan, first_words

DAY = 86400
HISTORY_DAYS = 180

# (tags, entities, facts, context sentences that may follow a fact)
TOPICS: list[tuple[list[str], list[str], list[str], list[str]]] = [
    (["prefs", "python"], ["pytest", "ruff", "mypy"], [
        "Prefers pytest with plain assert statements over unittest classes.",
        "Wants type hints on every public function and mypy in strict mode for new modules.",
        "Formats Python with ruff format and lints with ruff; black is no longer used anywhere.",
        "Likes dataclasses for plain records and pydantic only at the edges where data comes in.",
        "Prefers pathlib over os.path in all new code.",
        "Dislikes mocks that patch internals; fakes and real temporary directories are preferred.",
        "Keeps line length at 100 characters in every repository.",
        "Asks for small commits with messages in the imperative mood.",
        "Prefers f-strings; %-formatting only in logging calls.",
        "Wants errors a person should read to be one line, without a traceback.",
        "Uses uv to manage virtual environments on the laptop, plain venv in CI.",
        "Likes docstrings that say why, not what; no restating of the signature.",
        "Prefers composition to inheritance except for small exception hierarchies.",
        "Reviews diffs in the terminal with delta rather than in the browser.",
    ], [
        "Said so while we refactored the importer, and asked that the existing modules be "
        "brought in line with it over the next few weeks.",
        "It came up again during the code review of the storage layer, so it is a firm "
        "preference rather than a passing remark.",
        "Mentioned twice in the same week, both times with some emphasis, after a pull request "
        "from a contributor did it differently.",
        "They asked me to apply it to generated code too, not only to hand-written modules, "
        "because generated code gets read just as often.",
    ]),
    (["proj-memvault", "dev"], ["memvault", "Textual", "git"], [
        "memvault stores one JSON file per memory so every change is a readable git diff.",
        "The vault commits on a private index so the user's staged work is never touched.",
        "Decay scores use the power law by default: alpha 1.1 and a three-day half-life.",
        "gc only prunes active memories; archived and promoted ones are never deleted by it.",
        "The TUI must open a 10k-memory vault in under a second and a half.",
        "Restore brings a deleted memory back together with the relations deleted with it.",
        "The CLI exits 1 on a refused operation and 2 on a usage error.",
        "Split keeps split_from edges from each part to the original for provenance.",
        "Consolidation merges a cluster into one memory with consolidated_from edges.",
        "The benchmark compares vault.open against CortexGraph's JSONL storage on the same data.",
        "Snapshot tests freeze the clock so scores in the pictures never change.",
        "Ids are uuid4 for new memories; a unique prefix of four characters is accepted.",
        "The gist is made of the content's own words and never invents facts.",
    ], [
        "Decided in the design notes for the first release, after comparing it with the "
        "single JSONL file CortexGraph uses.",
        "This was a requirement from the issue tracker, not only a nice-to-have, and the tests "
        "check it on every change.",
        "We checked it with a benchmark on the laptop and again in CI, where the numbers were "
        "about thirty percent slower.",
    ]),
    (["work", "team"], ["Alice", "Bob", "Carol", "Dave"], [
        "Alice leads the platform team and prefers decisions written down in the tracker.",
        "Bob is the only one who knows the billing service well; pair with him before changing it.",
        "Carol runs the Thursday architecture review; proposals are due Tuesday evening.",
        "Dave is on parental leave until the end of the quarter.",
        "The team's standup is at 9:30 and is skipped on Fridays.",
        "Never deploy on Fridays: the on-call rota is thin at the end of the week.",
        "Quarterly planning happens in the first week of each quarter with the whole team.",
        "The team uses Linear for tickets and GitHub for code review.",
        "Incident reviews are blameless and written within two working days.",
        "Alice wants a short written summary after every customer call.",
        "The Q3 roadmap puts the search rewrite before the mobile app.",
        "New services need a runbook before they get an on-call rotation.",
        "Carol prefers diagrams in Mermaid committed next to the code.",
    ], [
        "Heard in the weekly one-to-one with Alice, who asked that the whole team keep to it "
        "from now on.",
        "This changed last quarter after the reorganisation; the old rule no longer applies and "
        "the wiki page is out of date.",
        "Worth remembering before the next planning week, when the priorities for the quarter "
        "are set.",
    ]),
    (["ops", "ci"], ["GitHub Actions", "Postgres", "Redis"], [
        "CI runs the test suite with pytest -n 2 on Python 3.11 and 3.12.",
        "Clearing the pip cache in CI fixed the flaky dependency resolution last month.",
        "The staging database is Postgres 16; production is still on 15 until the migration.",
        "Redis is only a cache; losing it must never lose data.",
        "Deploys go through the merge queue; direct pushes to main are blocked.",
        "The nightly job prunes preview environments older than three days.",
        "Docker images are built once and promoted from staging to production by digest.",
        "Database migrations must be backwards compatible for one release.",
        "Secrets live in the cloud secret manager, never in the repository.",
        "Alerts page only for user-visible symptoms; everything else is a ticket.",
        "The CI cache key includes the lock file hash and the Python version.",
        "Preview environments get a copy of anonymised staging data.",
        "Log retention is thirty days in the hot store and a year in cold storage.",
    ], [
        "Learned the hard way during an incident in the spring, when a deploy took the API "
        "down for twenty minutes.",
        "Confirmed by reading the workflow files in the infrastructure repository after a "
        "question from the new team member.",
        "This is written in the platform handbook as well, in the section about environments "
        "and release safety.",
    ]),
    (["travel", "personal"], ["Lisbon", "Berlin", "Porto", "Kyoto"], [
        "Flying to Lisbon for the conference in October; the talk is on the second day.",
        "Prefers aisle seats on flights longer than two hours.",
        "Likes small hotels within walking distance of the old town.",
        "Went to Porto last spring and wants to go back for the food.",
        "Travels with a carry-on only; no checked luggage if it can be avoided.",
        "Has a Deutsche Bahn card for trips to Berlin.",
        "Kyoto is on the list for next year, ideally in November for the autumn colours.",
        "Prefers trains to flights for trips under five hours.",
        "Books accommodation with free cancellation until the plans are certain.",
        "Needs a power adapter for the UK and forgot it last time.",
        "Likes to arrive a day early before giving a talk.",
        "Keeps travel documents in a shared folder with the partner.",
    ], [
        "Said while planning the autumn trips, together with a list of places they would like "
        "to see again.",
        "It came up when booking the last trip and will matter again the next time flights or "
        "hotels are booked.",
    ]),
    (["food", "health"], ["oat milk"], [
        "Vegetarian for five years; eats fish only occasionally.",
        "Allergic to peanuts: always check recipes and restaurant menus.",
        "Drinks coffee with oat milk and no sugar.",
        "Runs three times a week, usually early in the morning.",
        "Wants to try making fresh pasta at home.",
        "Batch-cooks lentil soup on Sundays for the week.",
        "Stops drinking coffee after two in the afternoon to sleep better.",
        "Prefers spicy food; likes Sichuan and Ethiopian cuisine.",
        "Training for a half marathon in the spring.",
        "Keeps a sourdough starter named Herbert.",
        "Does not like coriander.",
        "Goes to the climbing gym with friends on Wednesday evenings.",
    ], [
        "Mentioned casually while we planned the meals for the week and made the shopping "
        "list together.",
        "This matters for restaurant suggestions and recipes, and for dinners with friends who "
        "cook for them.",
    ]),
    (["reading", "learning"], ["Rust", "Obsidian"], [
        "Is learning Rust with the official book; currently at the chapter on lifetimes.",
        "Takes notes in Obsidian, one note per idea, linked by backlinks.",
        "Finished 'Designing Data-Intensive Applications' and wants a summary of chapter 9.",
        "Wants to read more fiction this year; started with Le Guin.",
        "Learning Portuguese on weekday mornings for the Lisbon trip.",
        "Prefers papers as PDFs annotated on the tablet.",
        "Follows a reading group on distributed systems every other Monday.",
        "Wants spaced-repetition cards only for vocabulary, not for concepts.",
        "Prefers long-form articles saved to read later over newsletters.",
        "Interested in CRDTs for the notes app side project.",
        "Listens to podcasts only while running.",
        "Keeps a list of books recommended by friends in a single note.",
    ], [
        "Said when we set up the reading list at the start of the year and sorted it by "
        "priority.",
        "It is a goal for this year, so gentle reminders are welcome, especially on quiet "
        "weekends.",
    ]),
    (["home", "personal"], ["Herbert"], [
        "The internet contract renews in March; compare offers before then.",
        "The balcony plants need water every second day in summer.",
        "Recycling is collected on Tuesdays, general waste on Fridays.",
        "Wants a standing desk for the home office.",
        "The landlord prefers email over phone calls.",
        "Heating service is due every autumn before the cold starts.",
        "Keeps spare keys with the neighbour on the second floor.",
        "Prefers warm white light bulbs in the living room.",
        "The bike needs new brake pads before winter.",
        "Works from home on Mondays and Fridays.",
        "Plans to repaint the study in a light grey.",
        "The washing machine runs on the cheap tariff after ten at night.",
    ], [
        "Worth a reminder a few weeks before the date, because it was forgotten once and "
        "cost a late fee.",
        "Said when we sorted the household calendar and moved the recurring chores into one "
        "shared list.",
    ]),
    (["admin", "finance"], ["ETF"], [
        "Files the tax return in May with the help of a tax adviser.",
        "Keeps receipts for work equipment in a folder named by year.",
        "Pays rent on the first working day of the month by standing order.",
        "Saves a fixed amount into a world ETF every month.",
        "The car insurance renews in January.",
        "Prefers paperless statements for every account.",
        "Splits shared expenses with the partner in a spreadsheet each month.",
        "Wants a reminder to review subscriptions every quarter.",
        "The passport expires in two years; renew before booking long trips.",
        "Keeps an emergency fund of three months of expenses.",
        "Donates to the local food bank at the end of each year.",
        "Uses a password manager for everything, with a hardware key for the email account.",
    ], [
        "Mentioned while we cleaned up the finance notes and moved the old statements into "
        "the archive folder.",
        "A deadline that repeats every year, so a reminder a month ahead is the right time to "
        "start.",
    ]),
    (["music", "hobby"], ["Bach", "piano"], [
        "Plays the piano; currently learning a Bach invention.",
        "Practises for twenty minutes before work most days.",
        "Likes jazz trios, especially live recordings.",
        "Wants to record a short piece for a friend's birthday.",
        "The piano needs tuning twice a year.",
        "Prefers listening to albums start to finish rather than playlists.",
        "Goes to the small jazz club near the station once a month.",
        "Is looking for a piano teacher for occasional lessons.",
        "Uses a metronome app set to sixty when practising slowly.",
        "Collects vinyl records of Scandinavian jazz.",
        "Wants to learn some basic music theory for improvisation.",
        "Plays duets with a neighbour who plays the violin.",
    ], [
        "Said with obvious enthusiasm while we talked about plans for the weekend and the "
        "concert next month.",
        "A steady hobby for many years that they want to make more time for again this "
        "season.",
    ]),
    (["side-project", "notes-app"], ["CRDT", "SQLite"], [
        "The notes app side project stores everything in a single SQLite file.",
        "Sync between devices should work offline first and merge later.",
        "The editor should support markdown with live preview.",
        "Wants end-to-end encryption before sharing notes with anyone.",
        "The first release only needs desktop; mobile can wait.",
        "Search must work across ten thousand notes in under 100 ms.",
        "Attachments are stored next to the database, content-addressed by hash.",
        "Wants import from Obsidian vaults without losing backlinks.",
        "The side project has a hard budget of four hours a week.",
        "Tags in the notes app are hierarchical, separated by slashes.",
        "Considering a plugin system, but only after the core is stable.",
        "Would like the app to open in under half a second.",
    ], [
        "Written in the project's design notes, next to the list of things that are out of "
        "scope for now.",
        "Decided while sketching the architecture on a Sunday afternoon, after comparing three "
        "other apps.",
    ]),
    (["assistant", "meta"], ["Claude"], [
        "Prefers short answers first and details only when asked.",
        "Wants code suggestions as complete files when they are short.",
        "Asks to be told when something is a guess rather than a fact.",
        "Prefers British spelling in written documents.",
        "Wants a summary at the end of long sessions.",
        "Does not want emojis in technical writing.",
        "Likes being asked one clarifying question rather than many.",
        "Prefers examples over abstract explanations.",
        "Wants links to documentation when an API is mentioned.",
        "Prefers tables for comparisons of more than two options.",
        "Asked to be reminded of open tasks at the start of a session.",
        "Prefers the 24-hour clock and ISO dates.",
    ], [
        "Stated at the start of our first session, as one of a few ground rules for working "
        "together.",
        "A correction after an earlier answer ignored it, so it should be applied every time "
        "without exception.",
    ]),
]

# Composite memories that are split later: (content, tags, parts)
COMPOSITES: list[tuple[str, list[str], list[tuple[str, list[str]]]]] = [
    ("Onboarding notes for the new job. The laptop is a MacBook with the company's device "
     "management profile, and the VPN client must be running for the internal wiki.\n\n"
     "The team's main repositories are the API monorepo and the infrastructure repository; "
     "reviews need one approval from a code owner.\n\n"
     "Payroll runs on the 25th, and expenses are submitted through the finance portal within "
     "thirty days.",
     ["work", "onboarding", "admin"],
     [("The work laptop is a MacBook with device management; the VPN client must run for the "
       "internal wiki.", ["work", "onboarding"]),
      ("The main repositories are the API monorepo and the infrastructure repository; reviews "
       "need one code-owner approval.", ["work", "dev"]),
      ("Payroll runs on the 25th; expenses go through the finance portal within thirty days.",
       ["admin", "finance"])]),
    ("Lisbon trip planning: the conference hotel is in Baixa, ten minutes from the venue.\n\n"
     "The talk slides must be exported to PDF as a backup in case the projector fails.\n\n"
     "Want to stay two extra days to visit Sintra and eat at the small restaurant in Alfama "
     "a friend recommended.",
     ["travel", "talk", "personal"],
     [("The Lisbon conference hotel is in Baixa, ten minutes from the venue.", ["travel"]),
      ("Export the talk slides to PDF as a backup in case the projector fails.", ["talk"]),
      ("Stay two extra days in Lisbon for Sintra and the restaurant in Alfama.",
       ["travel", "personal"])]),
    ("Home office setup: the monitor arm wobbles and needs a stronger clamp. The chair is "
     "fine but the desk is too low, so a standing desk is on the wish list. Cable management "
     "under the desk is a mess and the USB hub disconnects when the heater runs.",
     ["home", "office"],
     [("The monitor arm wobbles and needs a stronger clamp.", ["home", "office"]),
      ("The desk is too low; a standing desk is on the wish list.", ["home", "office"]),
      ("The USB hub disconnects when the heater runs; tidy the cables under the desk.",
       ["home", "office"])]),
]

# Near-duplicates an assistant saved on different days; each cluster is merged later.
CLUSTERS: list[tuple[list[str], list[str], str]] = [
    (["Prefers dark themes in every editor and terminal.",
      "Prefers a dark theme in the editor and in the terminal.",
      "Always wants dark themes in editors and terminals."],
     ["prefs", "editor"], "delete"),
    (["The weekly team sync moved to Wednesday at 14:00.",
      "Team sync is now on Wednesdays at 14:00.",
      "The weekly sync with the team is on Wednesday at 14:00 from now on."],
     ["work", "meetings"], "delete"),
    (["Use conventional commit prefixes like feat and fix in the memvault repository.",
      "The memvault repository uses conventional commit prefixes such as feat and fix."],
     ["proj-memvault", "git"], "archive"),
]

# Saved on the last day and left for the person (the app's split and consolidate wizards): one
# composite memory, and near-duplicates (tags, entities, texts).
WAITING_COMPOSITE = (
    "Flat and balcony notes. The tomatoes on the balcony need water every evening in July and "
    "tomato feed every second week.\n\n"
    "Ana, the neighbour downstairs, looks after the plants when we travel; her spare key is in "
    "the blue box by the door.\n\n"
    "The bike room code changed to 4711 in May, and the bike needs new brake pads before the "
    "autumn rides start.\n\n"
    "The building manager, Mr Costa, wants the balcony drain cleared before the first storms "
    "in October, or the rain water runs into the flat below and the ceiling there stains.",
    ["home", "garden", "neighbours", "bike", "building"], ["Ana", "Mr Costa"])
WAITING_DUPLICATES: list[tuple[list[str], list[str], list[str]]] = [
    (["The dentist appointment is on Tuesday 3 July at 09:30 with Dr Silva.",
      "Dentist appointment on Tuesday 3 July at 09:30 with Dr Silva.",
      "Dentist appointment: Tuesday 3 July, 09:30, Dr Silva."],
     ["health"], ["Dr Silva"]),
    (["Renew the passport before the trip to Japan in November.",
      "Renew the passport before the Japan trip in November!"],
     ["travel", "admin"], ["Japan"]),
]

# (profile, share, last-used days ago range, use count range)
PROFILES = [
    ("fresh", 0.25, (0.0, 2.0), (2, 14)),
    ("fading", 0.2, (1.5, 6.0), (0, 3)),
    ("danger", 0.2, (6.0, 20.0), (0, 2)),
    ("critical", 0.17, (20.0, 45.0), (0, 1)),
    ("stale", 0.18, (55.0, 170.0), (0, 0)),
]


@dataclass
class DemoReport:
    path: Path
    memories: int
    archived: int
    promoted: int
    splits: int
    consolidations: int


@contextlib.contextmanager
def _dated(ts: int) -> Iterator[None]:
    """Commits made inside carry the date ``ts`` (git reads these from the environment)."""
    keys = ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE")
    saved = {k: os.environ.get(k) for k in keys}
    for k in keys:
        os.environ[k] = f"{int(ts)} +0000"
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@dataclass
class _Plan:
    memory: Memory  # as created
    uses: list[int]  # epoch seconds of each use, ascending
    profile: str
    strength: float


def _content(rng: random.Random, fact: str, contexts: list[str]) -> str:
    """A fact, often followed by some context (the longer ones get a gist)."""
    if rng.random() < 0.3 or not contexts:
        return fact
    extra = rng.sample(contexts, k=min(len(contexts), rng.choice([1, 2, 2])))
    return " ".join([fact, *extra])


def _new_id(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _plan(rng: random.Random, now: int) -> list[_Plan]:
    plans: list[_Plan] = []
    facts = [(tags, ents, fact, ctx) for tags, ents, facts, ctx in TOPICS for fact in facts]
    rng.shuffle(facts)
    weights = [p[1] for p in PROFILES]
    for tags, ents, fact, contexts in facts:
        name, _share, (lo, hi), (ulo, uhi) = rng.choices(PROFILES, weights)[0]
        last_used = now - int(rng.uniform(lo, hi) * DAY)
        span = rng.uniform(0, 110) * DAY if name != "stale" else rng.uniform(0, 20) * DAY
        created = max(now - HISTORY_DAYS * DAY, int(last_used - span))
        last_used = max(last_used, created)
        uses_n = rng.randint(ulo, uhi)
        uses = sorted(rng.randint(created, last_used) for _ in range(max(0, uses_n - 1)))
        if uses_n:
            uses.append(last_used)
        content = _content(rng, fact, contexts)
        entities = [e for e in ents if e.lower() in content.lower()]
        strength = (round(rng.uniform(1.1, 1.8), 1) if uses_n and rng.random() < 0.3
                    else 1.0)  # reinforced: only what was used
        memory = Memory(
            id=_new_id(rng), content=content, gist=make_gist(content, tags, entities),
            meta=MemoryMetadata(tags=list(tags), source=rng.choice(
                ["chat", "claude-code", "chat", "mcp:save_memory", "import:notes"])),
            created_at=created, last_used=created, use_count=0, strength=1.0,
            entities=entities,
        )
        plans.append(_Plan(memory, uses, name, strength))
    return plans


def build_demo(path: Path | str, *, now: int | None = None, seed: int = 7) -> DemoReport:
    """Build the demo vault at ``path`` (a new or empty folder). ``now`` fixes the clock the
    ages are measured from (default: the current time)."""
    root = Path(path).expanduser()
    if root.exists() and any(root.iterdir()):
        raise VaultError(f"refused: {root} is not empty (the demo needs a new folder)")
    now = now_epoch() if now is None else int(now)
    rng = random.Random(seed)
    start = now - HISTORY_DAYS * DAY
    with _dated(start - DAY):
        vault = Vault.open(root)
    plans = _plan(rng, now)

    # Composite memories and near-duplicate clusters: created early, used now and then.
    composite_ids: list[tuple[str, list[tuple[str, list[str]]]]] = []
    for content, tags, parts in COMPOSITES:
        created = start + rng.randint(10, 60) * DAY
        m = Memory(id=_new_id(rng), content=content, gist=make_gist(content, tags),
                   meta=MemoryMetadata(tags=tags, source="chat"), created_at=created,
                   last_used=created)
        plans.append(_Plan(m, sorted(rng.randint(created, created + 40 * DAY) for _ in range(3)),
                           "composite", 1.0))
        composite_ids.append((m.id, parts))
    cluster_ids: list[tuple[list[str], str]] = []
    for texts, tags, fate in CLUSTERS:
        ids = []
        for text in texts:
            created = start + rng.randint(20, 120) * DAY
            m = Memory(id=_new_id(rng), content=text, meta=MemoryMetadata(tags=tags,
                       source="chat"), created_at=created, last_used=created)
            plans.append(_Plan(m, [created + rng.randint(1, 10) * DAY], "cluster", 1.0))
            ids.append(m.id)
        cluster_ids.append((ids, fate))

    # The life of the vault as timed events, replayed in order: each week's new memories (one
    # commit) and uses (one commit); splits, merges, promotions, archives, an edit, relations
    # and a deletion at their own dates.
    by_id = {p.memory.id: p for p in plans}
    events: list[tuple[int, int, Callable[[], None]]] = []

    def at(when: int, action: Callable[[], None]) -> None:
        events.append((int(when), len(events), action))

    week = 7 * DAY
    t = start
    while t < now:
        end = min(t + week, now)
        new = sorted((p.memory for p in plans if t <= p.memory.created_at < end),
                     key=lambda m: m.created_at)
        if new:
            at(max(m.created_at for m in new), lambda new=new: vault.save_many(new))
        hits = {p.memory.id: [u for u in p.uses if t <= u < end] for p in plans}
        hits = {k: v for k, v in hits.items() if v}
        if hits:
            at(max(max(v) for v in hits.values()), lambda hits=hits: _use(vault, hits))
        t = end
    boosted = [(p.memory.id, p.strength) for p in plans if p.strength != 1.0]
    at(now - 20 * DAY, lambda: _boost(vault, boosted))
    counts = {"splits": 0, "consolidations": 0}
    for index, (memory_id, parts) in enumerate(composite_ids):
        when = now - (40 - 9 * index) * DAY
        at(when, lambda m=memory_id, p=parts, w=when, i=index: _split(vault, m, p, w, i, counts))
    for index, (ids, fate) in enumerate(cluster_ids):
        when = now - (30 - 8 * index) * DAY
        at(when, lambda ids=ids, fate=fate, w=when: _merge(vault, ids, fate, w, counts))
    at(now - 8 * DAY, lambda: _promote(vault, now - 8 * DAY))
    archive_rng = random.Random(seed + 1)
    at(now - 12 * DAY, lambda: _archive(vault, by_id, archive_rng, 5))
    at(now - 5 * DAY, lambda: _archive(vault, by_id, archive_rng, 4))
    at(now - 4 * DAY, lambda: _edit(vault))
    at(now - 2 * DAY, lambda: _relate(vault, random.Random(seed + 2)))
    at(now - DAY, lambda: _delete_one(vault))
    at(now - DAY // 2, lambda: _save_waiting(vault, now - DAY // 2, random.Random(seed + 3)))
    for when, _order, action in sorted(events):
        with _dated(when):
            action()

    status = {s: 0 for s in MemoryStatus}
    for m in vault.memories.values():
        status[m.status] += 1
    report = DemoReport(root.resolve(), len(vault.memories), status[MemoryStatus.ARCHIVED],
                        status[MemoryStatus.PROMOTED], counts["splits"],
                        counts["consolidations"])
    vault.close()
    return report


def _save_waiting(vault: Vault, when: int, rng: random.Random) -> None:
    """The memories left for the wizards (after everything else, so the rest of the demo is
    the same as without them)."""
    content, tags, entities = WAITING_COMPOSITE
    waiting = [Memory(id=_new_id(rng), content=content, gist=make_gist(content, tags, entities),
                      meta=MemoryMetadata(tags=tags, source="chat"), created_at=when - 3600,
                      last_used=when - 3600, entities=entities)]
    for texts, tags, entities in WAITING_DUPLICATES:
        for index, text in enumerate(texts):
            at = when - 600 * (index + 1)
            waiting.append(Memory(id=_new_id(rng), content=text,
                                  meta=MemoryMetadata(tags=tags, source="chat"), created_at=at,
                                  last_used=at, use_count=index, entities=entities))
    vault.save_many(waiting)


def _use(vault: Vault, hits: dict[str, list[int]]) -> None:
    used = []
    for memory_id, times in hits.items():
        live = vault.find(memory_id)
        if live is not None:
            used.append(live.model_copy(update={"use_count": live.use_count + len(times),
                                                "last_used": max(live.last_used, *times)}))
    if used:
        vault.save_many(used, message=f"touch: {len(used)} memories (this week's uses)"
                        if len(used) > 1 else None)


def _boost(vault: Vault, boosted: list[tuple[str, float]]) -> None:
    changed = [m.model_copy(update={"strength": s}) for i, s in boosted
               if (m := vault.find(i)) is not None]
    if changed:
        vault.save_many(changed, message=f"boost: {len(changed)} memories reinforced")


def _split(vault: Vault, memory_id: str, parts: list[tuple[str, list[str]]], when: int,
           index: int, counts: dict[str, int]) -> None:
    result = execute_split(vault, memory_id, [p for p, _ in parts], tags=[t for _, t in parts],
                           original="delete" if index == 2 else "archive")
    # core stamps the parts "used now"; in the demo's timeline that moment is ``when``.
    vault.save_many([m.model_copy(update={"last_used": when}) for m in result.parts],
                    message=f"update: {len(result.parts)} parts of {memory_id[:8]} "
                            "(last used at the split)")
    counts["splits"] += 1


def _merge(vault: Vault, ids: list[str], fate: str, when: int,
           counts: dict[str, int]) -> None:
    execute_consolidation(vault, ids, sources=fate)  # type: ignore[arg-type]
    counts["consolidations"] += 1
    if abs(vault.meta.get("last_consolidation_at", when) - when) > DAY:
        # core records the wall clock; the demo's timeline has its own
        vault.apply(lambda v: Plan("consolidate: record the merge's date (demo timeline)",
                                        meta={"last_consolidation_at": when}))


def _promote(vault: Vault, when: int) -> None:
    frequent = sorted((m for m in vault.memories.values() if m.status == MemoryStatus.ACTIVE),
                      key=lambda m: (-m.use_count, m.id))[:7]
    for m in frequent:
        slug = "-".join(w.strip(".,:;'") for w in m.content.lower().split()[:4])
        vault.save(m.model_copy(update={"status": MemoryStatus.PROMOTED, "promoted_at": when,
                                        "promoted_to": f"notes/memories/{slug}.md"}),
                   message=f"promote: {m.id[:8]} {first_words(m.text)}")


def _archive(vault: Vault, plans: dict[str, _Plan], rng: random.Random, n: int) -> None:
    stale = sorted((m for m in vault.memories.values() if m.status == MemoryStatus.ACTIVE
                    and m.id in plans and plans[m.id].profile in ("stale", "critical")),
                   key=lambda m: m.id)
    if stale:
        vault.archive(*[m.id for m in rng.sample(stale, k=min(n, len(stale)))])


def _edit(vault: Vault) -> None:
    for m in sorted(vault.memories.values(), key=lambda m: m.id):
        if "conference in October" in m.content and m.status == MemoryStatus.ACTIVE:
            content = m.content.replace("in October", "in early October").replace(
                "second day", "first day")
            vault.update(m.id, content=content, gist=make_gist(content, m.meta.tags, m.entities))
            return


def _relate(vault: Vault, rng: random.Random) -> None:
    living = sorted((m for m in vault.memories.values() if m.status == MemoryStatus.ACTIVE),
                    key=lambda m: m.id)
    for a, b, kind in _relations(rng, living):
        vault.relate(a, b, kind)


def _delete_one(vault: Vault) -> None:
    for m in sorted(vault.memories.values(), key=lambda m: m.id):
        if "coriander" in m.content:
            vault.delete(m.id)
            return


def _relations(rng: random.Random, memories: list[Memory]) -> list[tuple[str, str, str]]:
    """A handful of typed relations between memories that share a tag."""
    by_tag: dict[str, list[Memory]] = {}
    for m in memories:
        for t in m.meta.tags:
            by_tag.setdefault(t, []).append(m)
    out: list[tuple[str, str, str]] = []
    kinds = ["related", "supports", "depends_on", "related", "similar_to", "contradicts"]
    for tag in sorted(by_tag):
        group = by_tag[tag]
        if len(group) < 3:
            continue
        a, b = rng.sample(group, 2)
        out.append((a.id, b.id, rng.choice(kinds)))
    return out[:16]
