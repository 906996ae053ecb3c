"""Every append path gives the same answers (issue 26, docs/append.md).

Hypothesis draws a script from the synthetic battle generators (both rulesets,
every event type of each within their first 150 events):
the log cut into batches, with misplaced events (the engine may refuse them),
stale ``expected_seq``, retries of a keyed batch, keys reused for another
event, and the game master's corrections voiding an earlier event, or a
player taking back the last one (V-TURN-13: the state is folded again
without it, and later events of the log may then be refused). Each path plays the script on a battle of its own, and the answers
(seqs stored, or the refusal's status, code and field), the rows (type, data,
schema version, key, positions relative to the first, whether the stored chain is
the pure function's, ``battles.log.chain``) and the projection
folded from them must agree:

* ``locked cold``: the reference, the battle row locked and the state read from
  the projection and the log on every append;
* ``locked warm``: the locked path with this process's cached state;
* ``optimistic`` (PostgreSQL only): the one-statement compare-and-swap against
  the state this process kept after its last append;
* ``optimistic cold`` (PostgreSQL only): the same against the battle as read
  without a lock (no state kept: a battle's first batch, another process's
  battle), a first event taking the process's rules snapshot.

On PostgreSQL (``DATABASE_URL``; CI always) all four run; on SQLite the two
locked ones do.
"""
from __future__ import annotations

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles import engine
from battles.engine.fow.synthetic import synthetic_fow_battle
from battles.engine.synthetic import synthetic_battle
from battles.log import chain, store
from battles.log.cache import STATE_CACHE
from battles.models import Battle, BattleEvent, BattleProjection
from battles.selectors import rules_settings
from battles.services import NewEvent, battle_create, battle_event_append, battle_replay
from campaign.models import Campaign
from config.errors import ApplicationError
from rosters.models import InfantryClass
from tests.synthetic_logs import entered

# A ruleset's logs, the first of each the one the tests below the differential test use.
LOGS = {"v11.2": [entered(synthetic_battle(150, seed=seed)) for seed in (5, 0)],
        "fow": [entered(synthetic_fow_battle(120, seed=5))]}


@st.composite
def scripts(draw):
    """A ruleset and its steps: ("batch", events, key prefix or None, expected-seq offset)
    or ("retry", index of an earlier keyed batch) or ("reuse", index, the event's replacement)
    or ("void", how far before the head the voided event is, the side taking it back or None: the game
    master's correction)."""
    ruleset = draw(st.sampled_from(sorted(LOGS)))
    log = draw(st.sampled_from(LOGS[ruleset]))
    length = draw(st.integers(8, len(log)))
    steps, i = [], 0
    while i < length:
        # a first batch of up to half the log: the small batches after it reach deep into the battle
        size = draw(st.integers(1, len(log) // 2)) if not steps and draw(st.booleans()) else draw(st.integers(1, 6))
        events = [NewEvent(e.type, e.data, schema_version=e.version) for e in log[i:i + size]]
        if steps and draw(st.integers(0, 9)) == 0:  # a misplaced event: from elsewhere in the log
            other = log[draw(st.integers(0, len(log) - 1))]
            events.insert(draw(st.integers(0, len(events))), NewEvent(other.type, other.data,
                                                                      schema_version=other.version))
        keyed = draw(st.booleans())
        # expected = head + offset (None: unchecked); the first batch starts the battle
        offset = draw(st.sampled_from([0, 0, 0, None, -1, 1])) if steps else 0
        batch = len(steps)
        steps.append(("batch", events, f"b{batch}" if keyed else None, offset))
        if keyed and draw(st.integers(0, 3)) == 0:
            steps.append(("retry", batch))
        if keyed and draw(st.integers(0, 5)) == 0:
            steps.append(("reuse", batch))
        i += size
        if draw(st.integers(0, 7)) == 0:  # V-TURN-13: the game master voids an entry, or a side its last one
            side = draw(st.sampled_from([None, "attacker", "defender"]))
            steps.append(("void", 0 if side else draw(st.integers(0, 12)), side))  # the head's, or a recent one
    return ruleset, steps


def _play(campaign: Campaign, ruleset: str, steps: list, path: str) -> tuple[list, list, dict]:
    battle = battle_create(campaign=campaign, name=f"{path}")
    answers, sent, head = [], {}, 0
    for step in steps:
        if step[0] == "batch":
            _, events, prefix, offset = step
            if prefix is not None:
                events = [NewEvent(e.type, e.data, key=f"{prefix}.{j}", schema_version=e.schema_version)
                          for j, e in enumerate(events)]
            expected = None if offset is None else max(0, head + offset)
            sent[len(answers)] = (events, expected)
        elif step[0] == "void":
            _, back, side = step
            data = {"voids_seq": head - back, "reason": "ошибка записи"}
            events, expected = [NewEvent("correction", data | ({"side": side} if side else {}))], head
        elif step[0] == "retry":
            events, expected = sent[step[1]]
        else:  # a key of an earlier batch, for another event
            events, expected = sent[step[1]]
            events = [NewEvent("turn_ended", {"side": "attacker", "turn": 99}, key=events[0].key)]
        if path in ("locked cold", "optimistic cold"):
            STATE_CACHE.clear()
        try:
            result = battle_event_append(battle_id=battle.id, events=events, expected_seq=expected,
                                         as_game_master=True)
        except ApplicationError as exc:
            answers.append(("refused", exc.status_code, exc.code, exc.field))
        else:
            answers.append(("stored", result.created, [e.seq for e in result.events]))
            head = max(head, *(e.seq for e in result.events))
    rows = list(BattleEvent.objects.filter(battle=battle).order_by("seq")
                .values_list("seq", "type", "data", "schema_version", "key", "position", "chain"))
    # Each path stores the chain the pure function gives (battles.log.chain): the battles differ, so do
    # their chains; what is compared across paths is whether each row's is the right one.
    previous, right = chain.genesis(battle.id), []
    for seq, type_, data, version, key, _, stored in rows:
        previous = chain.link(previous, battle_id=battle.id, seq=seq, type=type_, schema_version=version, data=data,
                              key=key)
        right.append(stored == previous)
    first = rows[0][5] if rows else 0
    rows = [(*r[:5], r[5] - first, ok) for r, ok in zip(rows, right, strict=True)]
    battle_replay(battle_id=battle.id)
    state = BattleProjection.objects.get(battle=battle).state
    return answers, rows, state


def paths() -> list[str]:
    return ["locked cold", "locked warm"] + (["optimistic", "optimistic cold"] if connection.vendor == "postgresql"
                                             else [])


@pytest.mark.django_db(transaction=True)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow, HealthCheck.data_too_large])
@given(script=scripts())
def test_every_append_path_stores_and_refuses_alike(script, monkeypatch):
    ruleset, steps = script
    campaign = Campaign.objects.create(name="Дифференциальный", ruleset=ruleset)
    played = {}
    for path in paths():
        with monkeypatch.context() as m:
            m.setattr(store, "OPTIMISTIC", path.startswith("optimistic"))
            m.setattr(store.replays, "schedule", lambda battle_id: None)  # replayed once, at the end
            played[path] = _play(campaign, ruleset, steps, path)
    reference = played["locked cold"]
    assert any(a[0] == "stored" for a in reference[0]), "the script stored nothing: it tests nothing"
    assert all(r[-1] for r in reference[1]), "every stored chain is the pure function's"
    for path, (answers, rows, state) in played.items():
        assert answers == reference[0], path
        assert rows == reference[1], path
        assert state == reference[2], path
        assert engine.dump(engine.state_from_json(state, ruleset)) == engine.dump(
            engine.state_from_json(reference[2], ruleset))


@pytest.mark.django_db(transaction=True)
def test_the_optimistic_path_is_taken_when_the_state_is_cached(campaign, monkeypatch):
    """The differential test compares paths only if each is really taken: on
    PostgreSQL with the state cached, an append writes without the battle lock."""
    if connection.vendor != "postgresql":
        pytest.skip("the optimistic path is PostgreSQL's")
    taken = []
    real = store._append_optimistic
    monkeypatch.setattr(store, "_append_optimistic", lambda *a: taken.append(real(*a)) or taken[-1])
    log = LOGS["v11.2"][0]
    battle = battle_create(campaign=campaign, name="taken")
    for e in log[:4]:
        battle_event_append(battle_id=battle.id, events=[NewEvent(e.type, e.data, schema_version=e.version)],
                            expected_seq=None, as_game_master=True)
    assert [r is not None for r in taken] == [True, True, True, True]  # the first from the battle as read
    assert BattleProjection.objects.filter(battle=battle).exists()
    assert Battle.objects.get(pk=battle.id).rules == rules_settings()


@pytest.mark.django_db(transaction=True)
def test_a_first_event_after_the_game_data_changed_takes_the_new_rules(campaign, monkeypatch):
    """A process keeps the rules data's snapshot for new battles' first events
    (``store.rules_kept``); once the game master edits the infantry table,
    the statement refuses the kept snapshot (the version row moved) and the
    locked path stores the new data; the battle after that is optimistic again."""
    if connection.vendor != "postgresql":
        pytest.skip("the optimistic path is PostgreSQL's")
    taken = []
    real = store._append_optimistic
    monkeypatch.setattr(store, "_append_optimistic", lambda *a: taken.append(real(*a)) or taken[-1])
    first = LOGS["v11.2"][0][0]

    def first_event(name: str) -> dict:
        battle = battle_create(campaign=campaign, name=name)
        battle_event_append(battle_id=battle.id, events=[NewEvent(first.type, first.data)], expected_seq=0,
                            as_game_master=True)
        return Battle.objects.get(pk=battle.id).rules

    before = first_event("до правки")
    row = InfantryClass.objects.filter(rank="").order_by("position").first()
    InfantryClass.objects.filter(pk=row.pk).update(attack=row.attack + 5)
    after = first_event("после правки")
    again = first_event("ещё один")
    assert before["attack"][row.engine_class] == row.attack
    assert after["attack"][row.engine_class] == again["attack"][row.engine_class] == row.attack + 5
    assert [r is not None for r in taken] == [True, False, True]
