"""What the demo vault is made of: an assistant's half year of memories about one person (topics,
facts, contexts), what waits for the wizards on the last day, and how memories age."""

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
