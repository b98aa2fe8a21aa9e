"""What the demo vault is made of: an assistant's half year of memories about one person (topics
and their memories), the relations between them, what waits for the wizards on the last day, and
how memories age.

Every memory is listed whole, as one entry about one subject: a fact, or a fact and a sentence
written for it (never sentences picked from elsewhere and glued on). The only memories about
several subjects are the deliberate ones: ``COMPOSITES`` (split during the half year) and
``WAITING_COMPOSITE`` (left for the split wizard)."""

DAY = 86400
HISTORY_DAYS = 180

#: one memory: a fact alone, or (fact, a sentence about the same thing that follows it)
Entry = str | tuple[str, str]

# (tags, entities, memories)
TOPICS: list[tuple[list[str], list[str], list[Entry]]] = [
    (["prefs", "python"], ["pytest", "ruff", "mypy"], [
        ("Prefers pytest with plain assert statements over unittest classes.",
         "Plain asserts read better when a test fails, since pytest shows both values; unittest "
         "classes only remain in the old importer tests."),
        ("Wants type hints on every public function and mypy in strict mode for new modules.",
         "Older modules get their type hints when they are next touched, so strict mypy spreads "
         "without one big change."),
        "Formats Python with ruff format and lints with ruff; black is no longer used anywhere.",
        "Likes dataclasses for plain records and pydantic only at the edges where data comes in.",
        "Prefers pathlib over os.path in all new code.",
        ("Dislikes mocks that patch internals; fakes and real temporary directories are preferred.",
         "Mocks that patched internals broke twice during the storage refactor, while the tests "
         "with fakes kept passing unchanged."),
        "Keeps line length at 100 characters in every repository.",
        "Asks for small commits with messages in the imperative mood.",
        "Prefers f-strings; %-formatting only in logging calls.",
        "Wants errors a person should read to be one line, without a traceback.",
        ("Uses uv to manage virtual environments on the laptop, plain venv in CI.",
         "With uv the laptop's virtual environments rebuild in seconds; CI keeps plain venv so "
         "the workflow needs no extra tool."),
        "Likes docstrings that say why, not what; no restating of the signature.",
        "Prefers composition to inheritance except for small exception hierarchies.",
        "Reviews diffs in the terminal with delta rather than in the browser.",
    ]),
    (["proj-memvault", "dev"], ["memvault", "Textual", "git"], [
        ("memvault stores one JSON file per memory so every change is a readable git diff.",
         "The single JSONL file CortexGraph uses was compared and rejected: one change there "
         "rewrites a line nobody can review in a diff."),
        "The vault commits on a private index so the user's staged work is never touched.",
        ("Decay scores use the power law by default: alpha 1.1 and a three-day half-life.",
         "The power law lets old memories fade slowly instead of dropping to zero as fast as "
         "exponential decay, which suits a half year of notes."),
        "gc only prunes active memories; archived and promoted ones are never deleted by it.",
        ("The TUI must open a 10k-memory vault in under a second and a half.",
         "A benchmark opens the 10k-memory vault on every change; in CI it runs about thirty "
         "percent slower than on the laptop."),
        "Restore brings a deleted memory back together with the relations deleted with it.",
        "The CLI exits 1 on a refused operation and 2 on a usage error.",
        "Split keeps split_from edges from each part to the original for provenance.",
        "Consolidation merges a cluster into one memory with consolidated_from edges.",
        "The benchmark compares vault.open against CortexGraph's JSONL storage on the same data.",
        "Snapshot tests freeze the clock so scores in the pictures never change.",
        "Ids are uuid4 for new memories; a unique prefix of four characters is accepted.",
        "The gist is made of the content's own words and never invents facts.",
    ]),
    (["work", "team"], ["Alice", "Bob", "Carol", "Dave"], [
        ("Alice leads the platform team and prefers decisions written down in the tracker.",
         "In the weekly one-to-one Alice asked that every decision of the platform team link its "
         "tracker ticket from the pull request."),
        ("Bob is the only one who knows the billing service well; pair with him before changing "
         "it.",
         "The billing service has no runbook yet, so pairing with Bob is the only safety net "
         "until one is written."),
        ("Carol runs the Thursday architecture review; proposals are due Tuesday evening.",
         "Carol reads every proposal before the review and wants a one-page summary at the top "
         "with the decision asked for."),
        "Dave is on parental leave until the end of the quarter.",
        "The team's standup is at 9:30 and is skipped on Fridays.",
        "Never deploy on Fridays: the on-call rota is thin at the end of the week.",
        "Quarterly planning happens in the first week of each quarter with the whole team.",
        "The team uses Linear for tickets and GitHub for code review.",
        ("Incident reviews are blameless and written within two working days.",
         "The incident review template asks for a timeline, what helped, what hurt and follow-up "
         "tickets, never for a person to blame."),
        "Alice wants a short written summary after every customer call.",
        "The Q3 roadmap puts the search rewrite before the mobile app.",
        "New services need a runbook before they get an on-call rotation.",
        "Carol prefers diagrams in Mermaid committed next to the code.",
    ]),
    (["ops", "ci"], ["GitHub Actions", "Postgres", "Redis"], [
        "CI runs the test suite with pytest -n 2 on Python 3.11 and 3.12.",
        ("Clearing the pip cache in CI fixed the flaky dependency resolution last month.",
         "The flaky resolution came back once after the cache key changed, so clearing the pip "
         "cache is the first thing to try in CI."),
        ("The staging database is Postgres 16; production is still on 15 until the migration.",
         "The production migration to Postgres 16 is planned for next quarter, after a rehearsal "
         "on a copy of the staging database."),
        "Redis is only a cache; losing it must never lose data.",
        ("Deploys go through the merge queue; direct pushes to main are blocked.",
         "The merge queue runs the test suite again on the combined changes, which stopped two "
         "broken deploys in the spring."),
        "The nightly job prunes preview environments older than three days.",
        "Docker images are built once and promoted from staging to production by digest.",
        "Database migrations must be backwards compatible for one release.",
        "Secrets live in the cloud secret manager, never in the repository.",
        ("Alerts page only for user-visible symptoms; everything else is a ticket.",
         "Paging for every disk warning wore out the on-call rota last year; since then alerts "
         "users cannot see become tickets."),
        "The CI cache key includes the lock file hash and the Python version.",
        "Preview environments get a copy of anonymised staging data.",
        "Log retention is thirty days in the hot store and a year in cold storage.",
    ]),
    (["travel", "personal"], ["Lisbon", "Berlin", "Porto", "Kyoto"], [
        ("Flying to Lisbon for the conference in October; the talk is on the second day.",
         "The flight to Lisbon is booked for the conference; the talk still needs a last "
         "rehearsal the week before."),
        ("Prefers aisle seats on flights longer than two hours.",
         "On longer flights an aisle seat means getting up to stretch without waking anyone; "
         "window seats are fine on short flights."),
        "Likes small hotels within walking distance of the old town.",
        "Went to Porto last spring and wants to go back for the food.",
        ("Travels with a carry-on only; no checked luggage if it can be avoided.",
         "Checked luggage was lost for three days on the trip to Porto, which is why a carry-on "
         "is packed even for a week away."),
        "Has a Deutsche Bahn card for trips to Berlin.",
        ("Kyoto is on the list for next year, ideally in November for the autumn colours.",
         "The autumn colours in Kyoto peak in late November, so the trip needs booking months "
         "early, before the hotels fill up."),
        "Prefers trains to flights for trips under five hours.",
        "Books accommodation with free cancellation until the plans are certain.",
        "Needs a power adapter for the UK and forgot it last time.",
        "Likes to arrive a day early before giving a talk.",
        "Keeps travel documents in a shared folder with the partner.",
    ]),
    (["food", "health"], ["oat milk"], [
        ("Vegetarian for five years; eats fish only occasionally.",
         "Restaurant suggestions should be vegetarian first; fish is fine now and then, meat "
         "never, including in stocks and sauces, and friends who cook are told so beforehand."),
        ("Allergic to peanuts: always check recipes and restaurant menus.",
         "The peanut allergy is serious: recipes with peanut oil or satay sauce are out, and "
         "restaurants should be asked about it."),
        "Drinks coffee with oat milk and no sugar.",
        "Runs three times a week, usually early in the morning.",
        "Wants to try making fresh pasta at home.",
        "Batch-cooks lentil soup on Sundays for the week.",
        "Stops drinking coffee after two in the afternoon to sleep better.",
        "Prefers spicy food; likes Sichuan and Ethiopian cuisine.",
        ("Training for a half marathon in the spring.",
         "The half marathon training plan adds two kilometres to the long Sunday run each week "
         "until the race in the spring, with one easy run and one interval session in between."),
        ("Keeps a sourdough starter named Herbert.",
         "Herbert the sourdough starter is fed every evening and spends short holidays in the "
         "fridge, or with the neighbour on long trips; the starter is five years old."),
        "Does not like coriander.",
        "Goes to the climbing gym with friends on Wednesday evenings.",
    ]),
    (["reading", "learning"], ["Rust", "Obsidian"], [
        ("Is learning Rust with the official book; currently at the chapter on lifetimes.",
         "Lifetimes in Rust are the hard part so far; small examples with the borrow checker's "
         "errors help more than the book's prose."),
        ("Takes notes in Obsidian, one note per idea, linked by backlinks.",
         "Each Obsidian note holds one idea in a few sentences, and the backlinks do the work "
         "that folders of notes used to do."),
        ("Finished 'Designing Data-Intensive Applications' and wants a summary of chapter 9.",
         "Chapter 9 is about consistency and consensus; the summary should explain "
         "linearizability with an example, not only define it."),
        "Wants to read more fiction this year; started with Le Guin.",
        ("Learning Portuguese on weekday mornings for the Lisbon trip.",
         "Fifteen minutes of Portuguese each weekday morning, mostly phrases for restaurants, "
         "tickets and directions in Lisbon, with a short lesson in the language app on the train "
         "to work."),
        "Prefers papers as PDFs annotated on the tablet.",
        "Follows a reading group on distributed systems every other Monday.",
        "Wants spaced-repetition cards only for vocabulary, not for concepts.",
        "Prefers long-form articles saved to read later over newsletters.",
        "Interested in CRDTs for the notes app side project.",
        "Listens to podcasts only while running.",
        "Keeps a list of books recommended by friends in a single note.",
    ]),
    (["home", "personal"], ["Herbert"], [
        ("The internet contract renews in March; compare offers before then.",
         "The internet contract renewed at a higher price once because nobody compared offers, "
         "so start comparing in February and cancel the old contract in writing."),
        "The balcony plants need water every second day in summer.",
        "Recycling is collected on Tuesdays, general waste on Fridays.",
        "Wants a standing desk for the home office.",
        "The landlord prefers email over phone calls.",
        ("Heating service is due every autumn before the cold starts.",
         "The heating engineer books up quickly in autumn, so call in early September to get a "
         "service date before the cold."),
        "Keeps spare keys with the neighbour on the second floor.",
        "Prefers warm white light bulbs in the living room.",
        ("The bike needs new brake pads before winter.",
         "The rear brake pads on the bike squeal in the wet and are worn thin; the bike shop "
         "near the station fits new ones the same day."),
        "Works from home on Mondays and Fridays.",
        "Plans to repaint the study in a light grey.",
        "The washing machine runs on the cheap tariff after ten at night.",
    ]),
    (["admin", "finance"], ["ETF"], [
        ("Files the tax return in May with the help of a tax adviser.",
         "The tax adviser needs the receipts and the annual statements by mid-April to file the "
         "return in May without a rush."),
        "Keeps receipts for work equipment in a folder named by year.",
        "Pays rent on the first working day of the month by standing order.",
        ("Saves a fixed amount into a world ETF every month.",
         "The monthly ETF saving plan runs on the third of each month, after the rent, and the "
         "fixed amount is raised once a year."),
        "The car insurance renews in January.",
        "Prefers paperless statements for every account.",
        "Splits shared expenses with the partner in a spreadsheet each month.",
        "Wants a reminder to review subscriptions every quarter.",
        "The passport expires in two years; renew before booking long trips.",
        ("Keeps an emergency fund of three months of expenses.",
         "The emergency fund sits in its own savings account, apart from the ETF, and is topped "
         "up after any withdrawal from it."),
        "Donates to the local food bank at the end of each year.",
        ("Uses a password manager for everything, with a hardware key for the email account.",
         "The password manager's recovery kit is printed and kept with the passport; a spare "
         "hardware key is in the same place."),
    ]),
    (["music", "hobby"], ["Bach", "piano"], [
        ("Plays the piano; currently learning a Bach invention.",
         "The Bach invention is number eight in F major; the left hand of the middle section is "
         "the slow part to learn on the piano."),
        "Practises for twenty minutes before work most days.",
        ("Likes jazz trios, especially live recordings.",
         "Live recordings of jazz trios in small clubs are the favourites, with the audience "
         "audible; studio albums feel too clean, and trios without drums are the exception."),
        "Wants to record a short piece for a friend's birthday.",
        "The piano needs tuning twice a year.",
        "Prefers listening to albums start to finish rather than playlists.",
        "Goes to the small jazz club near the station once a month.",
        ("Is looking for a piano teacher for occasional lessons.",
         "The piano teacher should be fine with a lesson every two or three weeks and know some "
         "jazz as well as classical pieces."),
        "Uses a metronome app set to sixty when practising slowly.",
        "Collects vinyl records of Scandinavian jazz.",
        "Wants to learn some basic music theory for improvisation.",
        "Plays duets with a neighbour who plays the violin.",
    ]),
    (["side-project", "notes-app"], ["CRDT", "SQLite"], [
        ("The notes app side project stores everything in a single SQLite file.",
         "One SQLite file makes a backup a single copy and lets the notes app run without a "
         "server of any kind."),
        ("Sync between devices should work offline first and merge later.",
         "Offline sync is why CRDTs are on the table: two devices editing the same note must "
         "merge without asking the user."),
        "The editor should support markdown with live preview.",
        ("Wants end-to-end encryption before sharing notes with anyone.",
         "Sharing notes stays off until the encryption design is reviewed; the keys must never "
         "leave the person's own devices, and a server only ever sees encrypted notes."),
        "The first release only needs desktop; mobile can wait.",
        "Search must work across ten thousand notes in under 100 ms.",
        "Attachments are stored next to the database, content-addressed by hash.",
        "Wants import from Obsidian vaults without losing backlinks.",
        ("The side project has a hard budget of four hours a week.",
         "The four hours of the side project usually fall on Sunday mornings; anything that "
         "needs more waits for the next week."),
        "Tags in the notes app are hierarchical, separated by slashes.",
        "Considering a plugin system, but only after the core is stable.",
        "Would like the app to open in under half a second.",
    ]),
    (["assistant", "meta"], ["Claude"], [
        ("Prefers short answers first and details only when asked.",
         "A short answer first, then an offer of details, works better than a long answer that "
         "has to be skimmed for the point."),
        "Wants code suggestions as complete files when they are short.",
        ("Asks to be told when something is a guess rather than a fact.",
         "A guess stated as a fact once led to a wrong config change, so an answer should say "
         "plainly when it is a guess."),
        "Prefers British spelling in written documents.",
        ("Wants a summary at the end of long sessions.",
         "The summary at the end of a long session should list the decisions and the open tasks "
         "in a few short bullet points."),
        "Does not want emojis in technical writing.",
        "Likes being asked one clarifying question rather than many.",
        "Prefers examples over abstract explanations.",
        "Wants links to documentation when an API is mentioned.",
        "Prefers tables for comparisons of more than two options.",
        "Asked to be reminded of open tasks at the start of a session.",
        "Prefers the 24-hour clock and ISO dates.",
    ]),
]

#: Typed relations the person made, each between two memories about one thing (a phrase of each
#: memory's content, the type): they share a subject, and a word of it.
RELATIONS: list[tuple[str, str, str]] = [
    ("Training for a half marathon", "Runs three times a week", "depends_on"),
    ("Drinks coffee with oat milk", "Stops drinking coffee after two", "related"),
    ("Likes to arrive a day early before giving a talk", "Flying to Lisbon for the conference",
     "supports"),
    ("Learning Portuguese on weekday mornings", "Flying to Lisbon for the conference", "related"),
    ("Has a Deutsche Bahn card", "Prefers trains to flights", "supports"),
    ("Never deploy on Fridays", "Deploys go through the merge queue", "related"),
    ("Database migrations must be backwards compatible", "The staging database is Postgres 16",
     "related"),
    ("Bob is the only one who knows the billing service", "New services need a runbook",
     "related"),
    ("Carol prefers diagrams in Mermaid", "Carol runs the Thursday architecture review",
     "related"),
    ("Alice wants a short written summary", "Alice leads the platform team", "related"),
    ("The desk is too low; a standing desk", "Wants a standing desk for the home office",
     "similar_to"),
    ("The piano needs tuning twice a year", "Plays the piano; currently learning", "related"),
    ("Is looking for a piano teacher", "Plays the piano; currently learning", "related"),
    ("Collects vinyl records of Scandinavian jazz", "Likes jazz trios", "similar_to"),
    ("Interested in CRDTs", "Sync between devices should work offline first", "supports"),
    ("Wants import from Obsidian vaults", "Takes notes in Obsidian", "depends_on"),
    ("Keeps an emergency fund", "Saves a fixed amount into a world ETF", "related"),
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
