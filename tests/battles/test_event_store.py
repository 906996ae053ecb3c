"""The event store (battles.log.store): the state cache it keeps after an
append is always the true state of the log, and on PostgreSQL the optimistic
one-statement append writes only when the head, the rules snapshot and the
campaign are as the cached state says; anything else is answered by the
locked path, with its answers (docs/append.md)."""
from unittest import mock

import psycopg
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles import engine
from battles.log import store
from battles.log.cache import STATE_CACHE, Entry
from battles.models import Battle, BattleEvent, LogPosition
from battles.services import NewEvent, battle_create, battle_event_append
from config.errors import Conflict, Forbidden, InvalidInput, RuleRefused

START = NewEvent("battle_started", {"attacker": "A", "defender": "D"})


def turn(seq):
    k = seq - 2
    return NewEvent("turn_ended", {"side": ("defender", "attacker")[k % 2], "turn": k // 2 + 1})


def fold_log(battle):
    return engine.fold([engine.Event(e.seq, e.type, e.data, e.schema_version)
                        for e in BattleEvent.objects.filter(battle=battle).order_by("seq")])


def on_pg():
    return connection.vendor == "postgresql"


@pytest.fixture
def statements(monkeypatch):
    """The optimistic statements sent (psycopg's own ``RawCursor``, which Django does not wrap)."""
    sent = []
    real = psycopg.Cursor.execute

    def spy(self, query, params=None, **kw):
        if isinstance(query, str) and query.startswith("WITH b AS"):
            sent.append((params[1], params[2], params[0]))  # battle, head, n: ``_write_sql``'s $2, $3, $1
        return real(self, query, params, **kw)

    monkeypatch.setattr(psycopg.Cursor, "execute", spy)
    return sent


@pytest.mark.django_db(transaction=True)
def test_a_committed_append_leaves_the_true_state_for_the_next_which_reads_no_projection(campaign):
    battle = battle_create(campaign=campaign, name="cache")
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[START])
    entry = STATE_CACHE.take(battle.id)
    assert entry is not None and entry.head == 1 and engine.dump(entry.state) == engine.dump(fold_log(battle))
    assert entry.rules == Battle.objects.get(pk=battle.pk).rules  # decided under the battle's snapshot
    STATE_CACHE.keep(battle.id, entry)
    with CaptureQueriesContext(connection) as ctx, mock.patch("battles.log.store.replays"):  # no replay
        battle_event_append(battle_id=battle.id, expected_seq=1, events=[turn(2)])
    assert not any("battles_battleprojection" in q["sql"] for q in ctx.captured_queries), \
        "a cache hit reads no projection"
    after = STATE_CACHE.take(battle.id)
    assert after.head == 2 and engine.dump(after.state) == engine.dump(fold_log(battle))


@pytest.mark.django_db(transaction=True)
def test_a_refused_append_leaves_nothing_in_the_cache_and_the_next_starts_from_the_log(campaign):
    battle = battle_create(campaign=campaign, name="refused")
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[START])
    with pytest.raises(RuleRefused):
        battle_event_append(battle_id=battle.id, expected_seq=1,
                            events=[NewEvent("turn_ended", {"side": "attacker", "turn": 1})])
    assert STATE_CACHE.take(battle.id) is None  # taken by the refused append and dropped (folded in place)
    ok = battle_event_append(battle_id=battle.id, expected_seq=1, events=[turn(2)])
    assert ok.created and engine.dump(STATE_CACHE.take(battle.id).state) == engine.dump(fold_log(battle))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("optimistic", [True, False], ids=["optimistic", "locked"])
def test_a_cached_state_under_other_rules_is_never_used(campaign, monkeypatch, optimistic):
    """Either path (on PostgreSQL the optimistic one takes the entry first; the locked one alone, as on SQLite,
    must still refuse it)."""
    monkeypatch.setattr(store, "OPTIMISTIC", optimistic)
    battle = battle_create(campaign=campaign, name="other rules")
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[START])
    wrong = fold_log(battle)  # at seq 1, but not the state after it: another side to move
    wrong.side_to_move = "attacker"
    STATE_CACHE.take(battle.id)
    STATE_CACHE.keep(battle.id, Entry(1, {"talk_distance": 9}, "v11.2", wrong))
    battle_event_append(battle_id=battle.id, expected_seq=1, events=[turn(2)])
    assert battle.events.count() == 2  # checked against the real state, not the stale one
    assert engine.dump(STATE_CACHE.take(battle.id).state) == engine.dump(fold_log(battle))


def test_the_cache_never_replaces_a_later_state_with_an_earlier_one():
    from battles.log.cache import StateCache

    cache = StateCache(size=2)
    cache.keep(1, Entry(5, {}, "v11.2", "five"))
    cache.keep(1, Entry(4, {}, "v11.2", "four"))  # a slower thread's commit, older than the entry
    assert cache.take(1).state == "five" and cache.take(1) is None
    for battle in (1, 2, 3):
        cache.keep(battle, Entry(1, {}, "v11.2", battle))
    assert cache.take(1) is None and cache.take(3).state == 3  # the least recently kept goes past the size


@pytest.mark.django_db(transaction=True)
def test_appends_with_the_state_cached_are_one_statement_each(campaign, statements):
    battle = battle_create(campaign=campaign, name="one statement")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)  # the first: locked, stores the rules
    for seq in range(2, 6):
        r = battle_event_append(battle_id=battle.id, events=[turn(seq)], expected_seq=seq - 1)
        assert [e.seq for e in r.events] == [seq] and (r.events[0].pk is not None or not on_pg())
        assert r.events[0].type == "turn_ended" and r.events[0].data == turn(seq).data
    stored = list(BattleEvent.objects.filter(battle=battle).order_by("seq"))
    assert [e.seq for e in stored] == [1, 2, 3, 4, 5]
    assert [e.position for e in stored] == sorted(e.position for e in stored)
    battle.refresh_from_db()
    assert battle.head_seq == 5 and battle.rules is not None
    if on_pg():  # the first (locked: nothing cached) and each later one (optimistic): the same statement
        assert statements == [(battle.id, seq - 1, 1) for seq in range(1, 6)]
    else:
        assert statements == []  # SQLite: the locked path only
    assert engine.dump(STATE_CACHE.take(battle.id).state) == engine.dump(fold_log(battle))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("warm", [False, True], ids=["locked", "cached state"])
def test_a_lost_position_row_is_recreated_past_the_highest_position(campaign, warm):
    """The migration creates the LogPosition row; one lost (a flush) restarts
    after the highest stored position, on either path, and positions keep rising."""
    battle = battle_create(campaign=campaign, name="lost row")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    if not warm:
        STATE_CACHE.clear()
    first = BattleEvent.objects.get(battle=battle, seq=1).position
    LogPosition.objects.filter(id=1).delete()
    battle_event_append(battle_id=battle.id, events=[turn(2), turn(3)], expected_seq=1)
    positions = list(BattleEvent.objects.filter(battle=battle).order_by("seq").values_list("position", flat=True))
    assert positions == [first, first + 1, first + 2]
    assert LogPosition.objects.get(id=1).position == first + 2


@pytest.mark.django_db(transaction=True)
def test_a_stored_event_refuses_save_and_delete(campaign):
    from battles.models import EventLogIsAppendOnly

    battle = battle_create(campaign=campaign, name="rows")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    row = battle_event_append(battle_id=battle.id, events=[turn(2)], expected_seq=1).events[0]
    with pytest.raises(EventLogIsAppendOnly):
        row.save()
    with pytest.raises(EventLogIsAppendOnly):
        row.delete()


@pytest.mark.django_db(transaction=True)
def test_a_cached_state_behind_the_head_never_writes_and_the_append_is_checked_against_the_log(campaign):
    """Another process appended: this process's state is at seq 1, the head at 2.
    Unconditional: the compare-and-swap fails and the locked path decides.
    The event valid after seq 1 (defender's turn 1) is refused after seq 2."""
    battle = battle_create(campaign=campaign, name="behind")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    behind = STATE_CACHE.take(battle.id)
    battle_event_append(battle_id=battle.id, events=[turn(2)], expected_seq=1)  # locked path (no cache)
    STATE_CACHE.take(battle.id)
    STATE_CACHE.keep(battle.id, behind)  # the other process's stale state
    with pytest.raises(RuleRefused):
        battle_event_append(battle_id=battle.id, events=[turn(2)], expected_seq=None)
    assert list(BattleEvent.objects.filter(battle=battle).values_list("seq", flat=True).order_by("seq")) == [1, 2]
    assert battle_event_append(battle_id=battle.id, events=[turn(3)], expected_seq=None).events[0].seq == 3


@pytest.mark.django_db(transaction=True)
def test_a_state_behind_the_clients_expected_seq_is_folded_forward_from_the_log(campaign):
    battle = battle_create(campaign=campaign, name="catch up")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    behind = STATE_CACHE.take(battle.id)
    battle_event_append(battle_id=battle.id, events=[turn(2), turn(3)], expected_seq=1)
    STATE_CACHE.take(battle.id)
    STATE_CACHE.keep(battle.id, behind)
    assert battle_event_append(battle_id=battle.id, events=[turn(4)], expected_seq=3).events[0].seq == 4
    assert engine.dump(STATE_CACHE.take(battle.id).state) == engine.dump(fold_log(battle))


@pytest.mark.django_db(transaction=True)
def test_a_stale_expected_seq_is_409_with_the_current_seq_and_keys_are_still_a_retry(campaign):
    battle = battle_create(campaign=campaign, name="stale")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    keyed = NewEvent(**{**turn(2).__dict__, "key": "k2"})
    first = battle_event_append(battle_id=battle.id, events=[keyed], expected_seq=1)
    with pytest.raises(Conflict) as exc:
        battle_event_append(battle_id=battle.id, events=[turn(3)], expected_seq=1)
    assert exc.value.code == "stale_seq" and exc.value.extra == {"current_seq": 2}
    again = battle_event_append(battle_id=battle.id, events=[keyed], expected_seq=1)
    assert not again.created and [e.seq for e in again.events] == [e.seq for e in first.events]
    assert BattleEvent.objects.filter(battle=battle).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_stored_key_sent_again_with_the_cache_warm_is_the_retry_not_a_second_event(campaign):
    battle = battle_create(campaign=campaign, name="retry")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    keyed = NewEvent(**{**turn(2).__dict__, "key": "again"})
    first = battle_event_append(battle_id=battle.id, events=[keyed], expected_seq=None)
    again = battle_event_append(battle_id=battle.id, events=[keyed], expected_seq=None)  # optimistic first on PG
    assert not again.created and [e.seq for e in again.events] == [e.seq for e in first.events] == [2]
    assert Battle.objects.get(pk=battle.pk).head_seq == 2


@pytest.mark.django_db(transaction=True)
def test_a_finished_campaign_or_changed_rules_are_seen_by_the_statement(campaign):
    """The cache holds the state, but the database says otherwise: nothing is
    written and the locked path answers."""
    battle = battle_create(campaign=campaign, name="closed")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    type(campaign).objects.filter(pk=campaign.pk).update(status="finished")
    with pytest.raises(Conflict) as exc:
        battle_event_append(battle_id=battle.id, events=[turn(2)], expected_seq=1)
    assert exc.value.code == "campaign_finished"
    assert BattleEvent.objects.filter(battle=battle).count() == 1
    type(campaign).objects.filter(pk=campaign.pk).update(status="running")
    other = battle_create(campaign=campaign, name="rules")
    battle_event_append(battle_id=other.id, events=[START], expected_seq=0)
    Battle.objects.filter(pk=other.pk).update(rules={"talk_distance": 9})  # the master re-applied other rules
    battle_event_append(battle_id=other.id, events=[turn(2)], expected_seq=1)
    assert BattleEvent.objects.filter(battle=other).count() == 2
    assert STATE_CACHE.take(other.id).rules == {"talk_distance": 9}  # decided under the rules the battle now has


@pytest.mark.django_db(transaction=True)
def test_a_finished_campaign_is_answered_before_a_stale_seq(campaign):
    battle = battle_create(campaign=campaign, name="finished and stale")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    battle_event_append(battle_id=battle.id, events=[turn(2)], expected_seq=1)
    type(campaign).objects.filter(pk=campaign.pk).update(status="finished")
    with pytest.raises(Conflict) as exc:
        battle_event_append(battle_id=battle.id, events=[turn(3)], expected_seq=1)
    assert exc.value.code == "campaign_finished"


@pytest.mark.django_db(transaction=True)
def test_a_battles_first_keyed_batch_looks_up_no_key_and_its_retry_is_still_the_retry(campaign):
    """At head 0 the locked battle holds no event, so no key can be stored: the first batch (every battle's
    muster, the locked path) sends no key look-up; once the battle holds events a retry is found as ever."""
    battle = battle_create(campaign=campaign, name="first keys")
    keyed = NewEvent(**{**START.__dict__, "key": "start"})
    key = f"{connection.ops.quote_name(BattleEvent._meta.db_table)}.{connection.ops.quote_name('key')} IN"
    with CaptureQueriesContext(connection) as ctx:
        first = battle_event_append(battle_id=battle.id, events=[keyed], expected_seq=0)
    assert first.created and not [q["sql"] for q in ctx.captured_queries if key in q["sql"]]
    STATE_CACHE.clear()  # the retry takes the locked path, which must look the key up
    again = battle_event_append(battle_id=battle.id, events=[keyed], expected_seq=0)
    assert not again.created and [e.seq for e in again.events] == [1]
    assert BattleEvent.objects.filter(battle=battle).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("optimistic", [True, False], ids=["optimistic", "locked"])
def test_a_trusted_caller_not_the_game_master_is_refused_a_correction(campaign, monkeypatch, optimistic):
    """V-TURN-13: without a seat at the table or ``as_game_master`` (internal callers), a correction is
    refused 403 naming the event, on either path and with the state cached; nothing is written."""
    event = NewEvent("correction", {"voids_seq": 2, "reason": "ошибка"})
    monkeypatch.setattr(store, "OPTIMISTIC", optimistic)
    battle = battle_create(campaign=campaign, name="not the game master")
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[START])
    battle_event_append(battle_id=battle.id, expected_seq=1, events=[turn(2)])
    with pytest.raises(Forbidden) as exc:
        battle_event_append(battle_id=battle.id, expected_seq=2, events=[event])
    assert (exc.value.code, exc.value.field) == ("game_master_only", "events[0].type")
    assert Battle.objects.get(pk=battle.pk).head_seq == 2 and battle.events.count() == 2
    done = battle_event_append(battle_id=battle.id, expected_seq=2, events=[event], as_game_master=True)
    assert [e.seq for e in done.events] == [3]  # the game master records it


def test_a_batch_holds_at_most_max_batch_events(campaign, settings):
    """``SHTAB["MAX_BATCH"]`` events are stored; one more is 400 naming ``events``, and nothing is written."""
    settings.SHTAB = {**settings.SHTAB, "MAX_BATCH": 3}
    battle = battle_create(campaign=campaign, name="batch cap")
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[START, turn(2), turn(3)])
    with pytest.raises(InvalidInput) as exc:
        battle_event_append(battle_id=battle.id, expected_seq=3, events=[turn(4), turn(5), turn(6), turn(7)])
    assert exc.value.field == "events" and battle.events.count() == 3


def test_a_key_names_one_event_the_same_data_under_another_type_is_a_conflict(campaign):
    """Idempotency: a retry is the same event; the stored key sent with the same data under another type
    is 409 naming the key, not the stored event answered back."""
    battle = battle_create(campaign=campaign, name="key and type")
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[START])
    keyed = NewEvent("turn_ended", {"side": "defender", "turn": 1}, key="k1")
    battle_event_append(battle_id=battle.id, expected_seq=1, events=[keyed])
    again = battle_event_append(battle_id=battle.id, expected_seq=None, events=[keyed])
    assert not again.created and [e.seq for e in again.events] == [2]
    with pytest.raises(Conflict) as exc:
        battle_event_append(battle_id=battle.id, expected_seq=None,
                            events=[NewEvent("player_done", keyed.data, key="k1")])
    assert (exc.value.code, exc.value.field) == ("idempotency_conflict", "events[0].key")
    assert battle.events.count() == 2
