"""Standings at campaign scale (issue 5): a campaign of 10,000 characters,
2,000 battles and 1,000,000 battle events, loaded with COPY (the services
would take hours to play it), then the campaign projections are built by the
real service from the campaign log, and the public players' table is timed.

* ``standings_p95_ms``: p95 of ``GET /campaigns/{id}/standings/`` (Django's
  test client, in process, default sort, first page of 100 rows).
* ``standings_queries``: queries that page runs (the goal is a constant <= 10).
* ``standings_vs_sql``: the page's median time ÷ the median time of the one
  hand-written SQL query that produces the same rows.
* ``standings_cold_*``: the same with the rendered rows evicted before every
  request (the rows are cached per version of the campaign projection, so a
  cold page is the first view after the campaign changes).
"""
from __future__ import annotations

import io
import json
import random
import statistics
import time
from typing import Any


def _copy(cur, table: str, columns: list[str], rows) -> None:
    buf = io.StringIO()
    for row in rows:
        buf.write("\t".join("\\N" if v is None else str(v) for v in row) + "\n")
    buf.seek(0)
    with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        while chunk := buf.read(1 << 20):
            copy.write(chunk)


def build(*, characters: int, battles: int, events: int, seed: int = 7) -> dict[str, Any]:
    """Load the big campaign; returns its ids and how long each part took."""
    from django.contrib.auth.models import User
    from django.db import connection, transaction
    from django.utils import timezone

    from battles.models import LogPosition
    from campaign import services
    from campaign.models import Campaign, Nationality

    rnd = random.Random(seed)
    now = timezone.now().isoformat()
    t0 = time.perf_counter()
    su = Nationality.objects.get(code="su")
    owner = User.objects.create_user("standings-owner")
    campaign = Campaign.objects.create(name="Bench: a very long campaign", status="running")
    with transaction.atomic(), connection.cursor() as dj:
        cur = dj.cursor
        cur.execute("SELECT COALESCE(MAX(id), 0) FROM campaign_character")
        c0 = cur.fetchone()[0] + 1
        _copy(cur, "campaign_character", ["id", "owner_id", "name", "nationality_id", "rank", "photo", "created_at",
                                          "gender"],
              ((c0 + i, owner.id, f"Боец {i:05d}", su.id, "corporal", "", now, "m") for i in range(characters)))
        cur.execute("SELECT setval(pg_get_serial_sequence('campaign_character', 'id'), %s)", [c0 + characters])
        cur.execute("SELECT COALESCE(MAX(id), 0) FROM battles_battle")
        b0 = cur.fetchone()[0] + 1
        # (no dice committed: the bench's logs roll none)
        _copy(cur, "battles_battle", ["id", "campaign_id", "name", "number", "mission", "victory_conditions",
                                      "head_seq", "created_at", "dice_secret", "dice_commitment"],
              ((b0 + i, campaign.id, f"Бой {i + 1}", i + 1, "", "", events // battles, now, "", "")
               for i in range(battles)))
        cur.execute("SELECT setval(pg_get_serial_sequence('battles_battle', 'id'), %s)", [b0 + battles])
        cur.execute("SELECT position FROM battles_logposition WHERE id = 1")
        p0 = (cur.fetchone() or [0])[0]
        per = events // battles
        payload = json.dumps({"side": "defender", "turn": 1})
        _copy(cur, "battles_battleevent", ["battle_id", "seq", "position", "type", "data", "schema_version",
                                           "recorded_at"],
              ((b0 + i // per, i % per + 1, p0 + i + 1, "turn_ended", payload, 1, now) for i in range(battles * per)))
        LogPosition.objects.update_or_create(id=1, defaults={"position": p0 + battles * per})
        t_battles = time.perf_counter()
        # The campaign log: joining, then per battle a result and the fought records of ~10 characters.
        ce = []
        for i in range(characters):
            side = "attacker" if i % 2 else "defender"
            ce.append((campaign.id, c0 + i, None, "member_joined", json.dumps({"rank": "corporal", "side": side}), 0))
        for b in range(battles):
            winner = rnd.choice(["attacker", "defender", "draw"])
            ce.append((campaign.id, None, b0 + b, "battle_result", json.dumps({"winner": winner}), b + 1))
            for c in rnd.sample(range(characters), 10):
                ce.append((campaign.id, c0 + c, b0 + b, "battle_fought",
                           json.dumps({"kills": rnd.randint(0, 6), "casualties": rnd.randint(0, 3)}), b + 1))
            if b % 50 == 0:
                c = rnd.randrange(characters)
                ce.append((campaign.id, c0 + c, b0 + b, "promotion",
                           json.dumps({"from": "corporal", "to": "sergeant"}), b + 1))
        _copy(cur, "campaign_campaignevent", ["campaign_id", "character_id", "battle_id", "type", "data",
                                              "battle_number", "recorded_at"],
              (row + (now,) for row in ce))
    t_log = time.perf_counter()
    services.campaign_projections_rebuild(campaign=campaign)
    t_proj = time.perf_counter()
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    return {"campaign": campaign.id, "standings_characters": characters, "standings_battles": battles,
            "standings_battle_events": battles * (events // battles), "standings_campaign_events": len(ce),
            "standings_load_seconds": round(t_log - t0, 2), "standings_rebuild_seconds": round(t_proj - t_log, 2),
            "standings_battles_seconds": round(t_battles - t0, 2)}


SQL = """
SELECT c.id, c.name, s.side, s.rank, s.awards, s.battles, s.kills, s.casualties, s.prestige, n.corporal_ru
FROM campaign_standing s
JOIN campaign_character c ON c.id = s.character_id
JOIN campaign_nationality n ON n.id = c.nationality_id
WHERE s.campaign_id = %s
ORDER BY s.kills DESC, c.name, c.id
LIMIT 100
"""


def measure(campaign_id: int, *, requests: int = 60) -> dict[str, Any]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    url = f"/campaigns/{campaign_id}/standings/"
    client.get(url)  # warm up templates and connections
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    queries = len(ctx.captured_queries)
    page, raw = [], []
    for _ in range(requests):
        t = time.perf_counter()
        r = client.get(url)
        page.append(time.perf_counter() - t)
        assert r.status_code == 200
        t = time.perf_counter()
        with connection.cursor() as cur:
            cur.execute(SQL, [campaign_id])
            cur.fetchall()
        raw.append(time.perf_counter() - t)
    from django.core.cache import cache

    cold = []  # the same page with the rendered rows evicted each time (first view after a change)
    for _ in range(max(requests // 3, 5)):
        cache.clear()
        t = time.perf_counter()
        client.get(url)
        cold.append(time.perf_counter() - t)
    cold.sort()
    page.sort()
    p95 = page[int(0.95 * (len(page) - 1))]
    return {"standings_p95_ms": round(p95 * 1000, 2), "standings_median_ms": round(statistics.median(page) * 1000, 2),
            "standings_queries": queries, "standings_sql_median_ms": round(statistics.median(raw) * 1000, 3),
            "standings_vs_sql": round(statistics.median(page) / statistics.median(raw), 2),
            "standings_cold_p95_ms": round(cold[int(0.95 * (len(cold) - 1))] * 1000, 2),
            "standings_cold_vs_sql": round(statistics.median(cold) / statistics.median(raw), 2)}
