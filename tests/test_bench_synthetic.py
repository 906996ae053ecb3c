"""The bench's generic generator (``bench/synthetic.py``): every event it invents passes the engine's
append gate against the fold of the events before it and replays applied; every event type it has a
producer for shows up in a battle of a few thousand events; a seed gives the same battle (also in
another process, whatever the hash seed); ``uncovered()`` lists exactly the types left without a
producer; the turn-ends-only battles of ``TURNS_ONLY`` stay as they were."""
from __future__ import annotations

import collections
import functools
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from battles.engine import REGISTRY, BattleState, decide, decide_and_apply, dump, fold
from battles.engine.events import Event
from bench import synthetic

SEEDS = (0, 1, 2)
N = 5000
CHUNK = 500
CORE = frozenset({"battle_started", "force_mustered", "postures_declared", "fighters_moved", "fire",
                  "turn_ended", "battle_ended"})
NEW = frozenset({
    "terrain_placed", "wound_test", "melee", "morale_test", "order_given", "prisoner_taken", "prisoner_handled",
    "prisoner_freed", "smoke_fired", "fire_corrected", "vehicle_moved", "embarked", "disembarked",
    "crew_dismounted", "crew_boarded", "sapper_approached", "sapper_worked", "mine_revealed", "mine_triggered",
    "charge_detonated",
})
UNCOVERED = ["capture_attempted", "correction", "player_done", "vehicle_boarded"]
ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def battle(seed: int, n: int = N, end: bool = True) -> tuple[Event, ...]:
    return tuple(synthetic.battle(n, seed=seed, end=end))


def digest(events: list[Event] | tuple[Event, ...]) -> str:
    rows = [(e.seq, e.type, e.data, e.version) for e in events]
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize("seed", SEEDS)
def test_every_event_passes_the_append_gate_and_replays_applied(seed):
    events = list(battle(seed))
    assert [e.seq for e in events] == list(range(1, N + 1))
    assert events[-1].type == "battle_ended"
    state = BattleState()
    for i in range(0, N, CHUNK):
        chunk = events[i:i + CHUNK]
        decided = decide(state, [(e.type, e.data, e.version) for e in chunk], first_seq=i + 1)  # raises on a refusal
        assert [(e.seq, e.type, e.data) for e in decided] == [(e.seq, e.type, e.data) for e in chunk]
        state = fold(chunk, state)
    assert state.applied == N and state.unapplied == [] and state.status == "ended"
    gated = BattleState()
    for i in range(0, N, CHUNK):  # the append gate's own state, chunk by chunk, is the replay's
        chunk = events[i:i + CHUNK]
        gated = decide_and_apply(gated, [(e.type, e.data, e.version) for e in chunk], first_seq=i + 1)[1]
    assert gated.unapplied == [] and dump(gated) == dump(state)
    assert dump(fold(events)) == dump(state)  # and the whole log at once


@pytest.mark.parametrize("seed", SEEDS)
def test_every_covered_type_appears_in_a_battle(seed):
    """A producer that never fits (always ``None``) would leave its type out."""
    types = {e.type for e in battle(seed)}
    assert NEW <= types, sorted(NEW - types)
    assert types <= set(synthetic.PRODUCERS)


def test_the_core_mix_stays_the_bulk():
    """Postures, moves, rifle fire and turn ends are most of the battle; no new type is a big share."""
    counts = collections.Counter(e.type for e in battle(SEEDS[0]))
    core = sum(counts[t] for t in CORE)
    assert core > 0.55 * N, counts
    for t in NEW - {"wound_test"}:  # wound tests follow the hits (V-MED-3): about as many as there are wounds
        assert counts[t] < 0.06 * N, (t, counts[t])
    assert counts["wound_test"] < counts["fire"] + counts["melee"] + counts["mine_triggered"] * 2


def test_a_battle_opens_with_terrain_two_forces_then_the_start():
    events = battle(SEEDS[0])
    assert [e.type for e in events[:4]] == ["terrain_placed", "force_mustered", "force_mustered", "battle_started"]
    assert [e.data["side"] for e in events[1:3]] == ["attacker", "defender"]
    for e in events[1:3]:
        assert {v["kind"] for v in e.data["vehicles"]} == {"tank", "apc", "artillery"}
        crew = {c for v in e.data["vehicles"] for c in v["crew"]}
        assert crew <= {f["id"] for f in e.data["fighters"]}


def test_generation_is_deterministic_for_a_seed():
    assert battle(3, 3000) == tuple(synthetic.battle(3000, seed=3, end=True))
    assert tuple(synthetic.iter_battle(3000, seed=3, end=True)) == battle(3, 3000)
    assert battle(3, 3000) != battle(4, 3000)
    # without the closing event, a short battle is a prefix of a longer one
    assert battle(3, 3000, end=False)[:1000] == battle(3, 1000, end=False)


def test_generation_does_not_depend_on_the_hash_seed():
    """No candidate list comes from iterating a set: another process with another hash seed
    invents the same battle."""
    code = ("import hashlib, json; from bench import synthetic; "
            "rows = [(e.seq, e.type, e.data, e.version) for e in synthetic.battle(3000, seed=3, end=True)]; "
            "print(hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest())")
    for hash_seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, PYTHONHASHSEED=hash_seed),
                             capture_output=True, text=True, check=True, timeout=120)
        assert out.stdout.strip() == digest(battle(3, 3000)), hash_seed


def test_uncovered_is_exactly_what_has_no_producer():
    assert synthetic.uncovered() == UNCOVERED
    assert sorted(set(REGISTRY) - set(synthetic.PRODUCERS)) == UNCOVERED
    assert set(synthetic.PRODUCERS) == CORE | NEW


def test_every_producer_cites_the_rules_it_satisfies():
    for p in synthetic.PRODUCERS.values():
        doc = p.make.__doc__ or ""
        assert any(code in doc for code in ("V-", "S-", "G-")), p.type


def test_turns_only_battles_are_turn_ends_after_the_start():
    events = synthetic.battle(300, types=synthetic.TURNS_ONLY)
    assert events[0].type == "battle_started"
    assert {e.type for e in events[1:]} == {"turn_ended"}
    ended = synthetic.battle(300, types=synthetic.TURNS_ONLY, end=True)
    assert ended[-1].type == "battle_ended" and {e.type for e in ended[1:-1]} == {"turn_ended"}
    state = fold(ended)
    assert state.applied == 300 and state.unapplied == [] and state.status == "ended"


def test_the_types_filter_keeps_to_the_types_named():
    types = frozenset({"battle_started", "force_mustered", "postures_declared", "fighters_moved", "turn_ended"})
    events = synthetic.battle(400, seed=2, types=types)
    assert {e.type for e in events} == types
    assert fold(events).unapplied == []


def test_long_battle_from_the_generic_producers(monkeypatch):
    monkeypatch.setenv("BENCH_SYNTHETIC", "generic")
    events, source = synthetic.long_battle(800, seed=1)
    assert source == "bench.synthetic" and len(events) == 800 and events[-1].type == "battle_ended"
    assert fold(events).unapplied == []


@pytest.mark.django_db
def test_the_service_appends_a_synthetic_battle_as_the_bench_does(campaign):
    """``bench/cases.py`` appends these battles through ``battle_event_append`` as the game master."""
    from battles.models import BattleEvent
    from battles.services import NewEvent, battle_create, battle_event_append

    events = battle(SEEDS[1], 600)
    b = battle_create(campaign=campaign, name="bench synthetic")
    for i in range(0, len(events), 100):
        chunk = events[i:i + 100]
        battle_event_append(battle_id=b.id, expected_seq=i, as_game_master=True,
                            events=[NewEvent(type=e.type, data=e.data) for e in chunk])
    stored = [Event(e.seq, e.type, e.data, e.schema_version) for e in BattleEvent.objects.filter(battle=b).order_by("seq")]
    assert [(e.seq, e.type, e.data) for e in stored] == [(e.seq, e.type, e.data) for e in events]
    assert fold(stored).unapplied == []
