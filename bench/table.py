"""The battle table at scale (issue 8): a participant's battle page and the
recording form, measured in process with Django's test client (server time,
no network), on the bench database.

* ``battle_page_p95_ms``: p95 of ``GET /battles/{id}/`` for a participant of a
  battle of 1,000 events (the bench's synthetic battle, ``bench.synthetic``:
  musters, postures, moves, fire, vehicles, melee, wound and morale tests),
  goal <= 100 ms.
* ``battle_page_queries``: the queries that page runs (constant, tested).
* ``record_event_p95_ms``: p95 of submitting one recording form
  (``POST /battles/{id}/record/``, the «Ход» form) to the stored event,
  goal <= 150 ms. Each submission is a real append: the turn passes to the
  other side, whose player submits the next one.
"""
from __future__ import annotations

import statistics
import time
from typing import Any

GOAL_PAGE_MS = 100.0
GOAL_RECORD_MS = 150.0


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def build(*, events: int = 1000) -> dict[str, Any]:
    """A running battle of ``events`` events with one participant per side."""
    from django.contrib.auth.models import Group, User

    from battles import services
    from battles.models import Battle, BattleParticipant
    from bench import synthetic
    from campaign.models import Campaign, Character, Membership, Nationality
    from campaign.roles import GAME_MASTER, PLAYER

    gm = User.objects.create_user("table-gm", password="bench-not-a-secret")
    gm.groups.add(Group.objects.get(name=GAME_MASTER))
    campaign = Campaign.objects.create(name="Bench: the battle table", status="running", game_master=gm)
    su = Nationality.objects.get(code="su")
    players = {}
    for side in ("attacker", "defender"):
        user = User.objects.create_user(f"table-{side}", password="bench-not-a-secret")
        user.groups.add(Group.objects.get(name=PLAYER))
        character = Character.objects.create(owner=user, name=f"Bench {side}", nationality=su, rank="lieutenant")
        Membership.objects.create(campaign=campaign, player=user, character=character, side=side, status="active")
        players[side] = user
    battle = services.battle_create(campaign=campaign, name="Bench: 1,000 events")
    for side, user in players.items():
        BattleParticipant.objects.create(battle=battle, character=user.characters.get(), side=side)
    # The synthetic battle is generated under the engine's defaults: the battle
    # is played under exactly those (an empty snapshot of the game master's data).
    # Its dice are thrown at the table (``entered``), as the append takes them from
    # anyone but the service; it does not end: the battle runs.
    Battle.objects.filter(pk=battle.pk).update(rules={})
    log = synthetic.battle(events)
    for i in range(0, len(log), 100):
        chunk = log[i:i + 100]
        services.battle_event_append(
            battle_id=battle.id, expected_seq=i, as_game_master=True, recorded_by=gm,
            events=[services.NewEvent(type=e.type, data=e.data, schema_version=e.version) for e in chunk])
    services.battle_replay(battle_id=battle.id)
    return {"battle": battle.id, "players": {s: u.pk for s, u in players.items()}, "events": events}


def measure(built: dict[str, Any], *, requests: int = 60, records: int = 40) -> dict[str, Any]:
    from django.contrib.auth.models import User
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from battles import engine, services
    from battles.models import Battle, BattleProjection

    battle_id = built["battle"]
    clients = {}
    for side, pk in built["players"].items():
        c = Client()
        c.force_login(User.objects.get(pk=pk))
        clients[side] = c
    url = f"/battles/{battle_id}/"
    page = clients["attacker"]
    for _ in range(3):  # warm caches and templates
        assert page.get(url).status_code == 200
    samples = []
    for _ in range(requests):
        t = time.perf_counter()
        r = page.get(url)
        samples.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200
    reset_queries()  # the query log is capped: a full one makes the capture below read as empty
    with CaptureQueriesContext(connection) as queries:
        page.get(url)
    page_queries = len(queries)  # now: every request clears the query log when it starts

    state = engine.state_from_json(BattleProjection.objects.get(battle_id=battle_id).state)
    record_samples = []
    for _ in range(records):
        battle = Battle.objects.get(pk=battle_id)
        side = state.side_to_move
        form = {"form": "quick_turn", "expected_seq": battle.head_seq, "token": f"bench-{battle.head_seq}",
                "quick_turn-side": side, "quick_turn-turn": state.turn}
        t = time.perf_counter()
        r = clients[side].post(f"/battles/{battle_id}/record/", form)
        record_samples.append((time.perf_counter() - t) * 1000)
        assert r.status_code in (302, 303), (r.status_code, r.content[:500])
        stored = Battle.objects.get(pk=battle_id).head_seq
        assert stored == battle.head_seq + 1, "the form's event was not stored"
        state = _after_turn(state)
        # The bench's replay queue has no worker: replay here, outside the
        # timing, as the worker would before the other player's next form.
        services.battle_replay(battle_id=battle_id)
    return {
        "battle_page_p95_ms": _p95(samples), "battle_page_median_ms": statistics.median(samples),
        "battle_page_queries": page_queries, "battle_page_events": built["events"],
        "record_event_p95_ms": _p95(record_samples), "record_event_median_ms": statistics.median(record_samples),
        "record_event_samples": len(record_samples),
    }


def _after_turn(state):
    """The side to move and the turn after a «Ход» (V-TURN-12), without a replay."""
    from battles.engine.rules.core import other

    nxt = other(state.side_to_move)
    if nxt == state.first_mover:
        state.turn += 1
    state.side_to_move = nxt
    return state
