"""Benchmark of the club's backup file, to set when it is prepared in the background.

Run from the repository root:  python bench/files.py [--keep]

It needs PostgreSQL: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/pulka_bench_files)
names a database that the bench drops and creates afresh (and drops again at the end).

A club gets TEMPLATES real pulkas, played to the end through scoring.services with the demo's
generator of deals (competition.demo), so each deal has its revisions and each pulka its
status changes as a secretary leaves them. Copies of those pulkas (their seats, deals,
revisions and status changes, by bulk_create) then grow the club to each size of SIZES deals,
and the whole backup file (competition.backup.services.backup_file: club_document, JSON, UTF-8) is
built REPEAT times at each size; the median is taken.

The cost is linear in the deals (queries per pulka, rows per deal), so the slope over the
sizes gives the time per 1,000 deals, and the threshold is the count of deals whose backup
takes about TARGET_S: competition.backup.services.BACKUP_THRESHOLD_DEALS is set from it,
rounded down.
The last lines are::

    backup_ms_per_1000_deals: X
    prepared_file_threshold_deals: N
"""

from __future__ import annotations

import datetime
import os
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/pulka_bench_files"
DATABASE_URL = os.environ.get("DATABASE_URL") or DEFAULT_URL
os.environ["DATABASE_URL"] = DATABASE_URL
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", "bench-" + "k" * 50)
warnings.filterwarnings("ignore", "No directory at", UserWarning)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from bench.common import drop_database, recreate_database  # noqa: E402
from club.models import Club, Membership, Player, Role  # noqa: E402
from competition.backup import services as backup  # noqa: E402
from competition.demo import next_valid_deal  # noqa: E402
from scoring import engine, services  # noqa: E402
from scoring.models import Deal, DealRevision, Evening, Pulka, Seat, StatusChange  # noqa: E402

TEMPLATES = 12
SIZES = (2_000, 5_000, 10_000, 20_000)
REPEAT = 3
TARGET_S = 1.0
ROSTER = [f"Гравець {i:02d}" for i in range(24)]


def played_pulkas(club: Club, secretary) -> list[Pulka]:
    """TEMPLATES pulkas of 3 or 4 players, played until every pool is closed."""
    rng = random.Random(17)
    players = {p.name: p for p in Player.objects.filter(club=club)}
    evening = Evening.objects.create(
        club=club, date=datetime.date(2024, 1, 1), venue="Bench", created_by=secretary
    )
    pulkas = []
    for _ in range(TEMPLATES):
        names = rng.sample(ROSTER, rng.choice((3, 4)))
        seated = [players[name] for name in names]
        pulka = services.pulka_create(
            evening=evening,
            players=seated,
            first_dealer=seated[0],
            rules={**club.default_rules(), "pool_target": 20},
            created_by=secretary,
        )
        rules = pulka.engine_rules()
        deals: list[engine.Deal] = []
        while True:
            data, sheet = next_valid_deal(rng, rules, names, names[0], deals)
            services.deal_record(pulka=pulka, data=data, entered_by=secretary)
            deals.append(engine.deal_from_dict(data, len(deals) + 1))
            if sheet.closed:
                break
        pulkas.append(Pulka.objects.get(pk=pulka.pk))
    return pulkas


def grow(club: Club, templates: list[Pulka], deals_wanted: int, first_day: int) -> int:
    """Copy the template pulkas into new evenings (four tables each) until the club has
    `deals_wanted` deals; returns the club's deals."""
    have = Deal.objects.filter(pulka__evening__club=club).count()
    day = first_day
    index = 0
    while have < deals_wanted:
        evening = Evening.objects.create(
            club=club,
            date=datetime.date(2024, 1, 1) + datetime.timedelta(days=day),
            venue="Bench",
        )
        day += 1
        for table in range(1, 5):
            template = templates[index % len(templates)]
            index += 1
            have += _copy(template, evening, table)
            if have >= deals_wanted:
                break
    return have


def _copy(template: Pulka, evening: Evening, table: int) -> int:
    pulka = Pulka.objects.create(
        evening=evening,
        table=table,
        rules=template.rules,
        first_dealer=template.first_dealer,
        status=template.status,
        version=template.version,
        created_by=template.created_by,
        finished_at=template.finished_at,
    )
    Seat.objects.bulk_create(
        Seat(pulka=pulka, position=s.position, player_id=s.player_id)
        for s in Seat.objects.filter(pulka=template)
    )
    old_deals = list(Deal.objects.filter(pulka=template).order_by("number"))
    new_deals = Deal.objects.bulk_create(
        Deal(
            pulka=pulka,
            **{
                f.attname: getattr(d, f.attname)
                for f in Deal._meta.concrete_fields
                if f.attname not in ("id", "pulka_id")
            },
        )
        for d in old_deals
    )
    by_number = {d.number: d for d in new_deals}
    DealRevision.objects.bulk_create(
        DealRevision(
            pulka=pulka,
            deal=by_number.get(r.number) if r.deal_id else None,
            number=r.number,
            action=r.action,
            before=r.before,
            after=r.after,
            user_id=r.user_id,
            at=r.at,
        )
        for r in DealRevision.objects.filter(pulka=template)
    )
    StatusChange.objects.bulk_create(
        StatusChange(pulka=pulka, status=c.status, user_id=c.user_id, at=c.at)
        for c in StatusChange.objects.filter(pulka=template)
    )
    return len(new_deals)


def run() -> None:
    started = time.perf_counter()
    secretary = get_user_model().objects.create_user(username="secretary", email="s@example.com")
    club = Club.objects.create(name="Bench club", slug="bench", is_public=False)
    Membership.objects.create(club=club, user=secretary, role=Role.SECRETARY)
    Player.objects.bulk_create(Player(club=club, name=name) for name in ROSTER)
    templates = played_pulkas(club, secretary)
    per_pulka = Deal.objects.filter(pulka__in=templates).count() / len(templates)
    print(f"{TEMPLATES} pulkas played through the services: {per_pulka:.1f} deals a pulka")

    points: list[tuple[int, float]] = []
    day = 1
    for size in SIZES:
        deals = grow(club, templates, size, day)
        day = Evening.objects.filter(club=club).count() + 1
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        backup.backup_file(club)  # warm up
        times = []
        for _ in range(REPEAT):
            t0 = time.perf_counter()
            built = backup.backup_file(club)
            times.append(time.perf_counter() - t0)
        median = statistics.median(times)
        points.append((deals, median))
        print(
            f"{deals:,} deals ({Pulka.objects.filter(evening__club=club).count():,} pulkas): "
            f"backup {median * 1e3:.0f} ms, {len(built.content) / 1e6:.1f} MB"
        )

    # The least-squares slope: the cost of each further 1,000 deals.
    mean_x = statistics.fmean(x for x, _ in points)
    mean_y = statistics.fmean(y for _, y in points)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / sum(
        (x - mean_x) ** 2 for x, _ in points
    )
    intercept = mean_y - slope * mean_x
    threshold = int((TARGET_S - intercept) / slope)
    threshold -= threshold % 500
    print(f"fixed cost {intercept * 1e3:.0f} ms; total run {time.perf_counter() - started:.0f} s")
    print(f"threshold in the code: {backup.BACKUP_THRESHOLD_DEALS}")
    print(f"backup_ms_per_1000_deals: {slope * 1e6:.1f}")
    print(f"prepared_file_threshold_deals: {threshold}")


def main() -> None:
    recreate_database(DATABASE_URL)
    try:
        call_command("migrate", verbosity=0)
        run()
    finally:
        if "--keep" not in sys.argv:
            drop_database(DATABASE_URL)


if __name__ == "__main__":
    main()
