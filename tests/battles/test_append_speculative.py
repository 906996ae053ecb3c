"""A batch of ``SPECULATE_MIN_EVENTS`` or more is written while it is decided
(PostgreSQL, docs/append.md): ``BEGIN`` and the optimistic statement go down
a pipeline, the engine checks the batch meanwhile, then ``COMMIT``, or
``ROLLBACK`` when a check refuses. It gives the locked path's answers: the
same rows, the same state, the same refusal, and nothing written on a refusal."""
from __future__ import annotations

import pytest
from django.db import connection

from battles import engine, services
from battles.engine.synthetic import synthetic_battle
from battles.models import Battle, BattleEvent, LogPosition
from battles.services import STATE_CACHE, NewEvent, battle_create, battle_event_append
from config.errors import InvalidInput, RuleRefused

SCRIPT = synthetic_battle(120, seed=5)


@pytest.fixture(autouse=True)
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("the speculative write is PostgreSQL's: SQLite always takes the locked path")
    LogPosition.objects.get_or_create(id=1)  # a flushed test database lost it (the locked path recreates it)


@pytest.fixture
def spoken(monkeypatch):
    """Every speculative write: (battle id, head, events, what it returned)."""
    calls = []
    real = services._write_while_deciding

    def spy(sql, params, *rest):
        got = real(sql, params, *rest)
        calls.append((params["id"], params["head"], params["n"], got is not None))
        return got

    monkeypatch.setattr(services, "_write_while_deciding", spy)
    return calls


def new(events, prefix="k"):
    return [NewEvent(type=e.type, data=e.data, key=f"{prefix}{e.seq}") for e in events]


def stored(battle):
    return list(BattleEvent.objects.filter(battle=battle).order_by("seq"))


def replayed(battle):
    return engine.dump(engine.fold([engine.Event(e.seq, e.type, e.data, e.schema_version) for e in stored(battle)]))


def position():
    return LogPosition.objects.get(id=1).position


def idle():
    from psycopg import pq

    return connection.connection.info.transaction_status == pq.TransactionStatus.IDLE


@pytest.mark.django_db(transaction=True)
def test_a_large_batch_is_written_while_decided_and_stores_what_the_locked_path_stores(campaign, spoken):
    fast, slow = battle_create(campaign=campaign, name="speculative"), battle_create(campaign=campaign, name="locked")
    # The first events (below the threshold) store the rules snapshot; then three large batches.
    for lo, hi in ((0, 8), (8, 48), (48, 88), (88, 120)):
        chunk = SCRIPT[lo:hi]
        r = battle_event_append(battle_id=fast.id, events=new(chunk), expected_seq=lo, as_game_master=True)
        assert r.created and [e.seq for e in r.events] == [e.seq for e in chunk] and idle()
        assert lo == 0 or all(e.pk is not None for e in r.events)  # the statement's own rows (id, position)
        services.OPTIMISTIC = False
        try:
            battle_event_append(battle_id=slow.id, events=new(chunk), expected_seq=lo, as_game_master=True)
        finally:
            services.OPTIMISTIC = True
    assert spoken == [(fast.id, 8, 40, True), (fast.id, 48, 40, True), (fast.id, 88, 32, True)]
    a, b = stored(fast), stored(slow)
    assert [(e.seq, e.type, e.data, e.schema_version, e.key) for e in a] == [
        (e.seq, e.type, e.data, e.schema_version, e.key) for e in b]
    positions = [e.position for e in a]
    assert positions == sorted(positions) and len(set(positions)) == 120
    for lo, hi in ((8, 48), (48, 88), (88, 120)):  # one batch, several statements: consecutive positions
        assert positions[lo:hi] == list(range(positions[lo], positions[lo] + hi - lo))
    fast.refresh_from_db()
    assert fast.head_seq == 120 and fast.rules is not None
    cached = STATE_CACHE.take(fast.id, 120, services._fingerprint(fast.rules))
    assert cached is not None and engine.dump(cached) == replayed(fast) == replayed(slow)


@pytest.mark.django_db(transaction=True)
def test_a_batch_just_below_the_threshold_is_decided_first_and_one_at_the_threshold_is_not(campaign, spoken):
    battle = battle_create(campaign=campaign, name="threshold")
    n = services.SPECULATE_MIN_EVENTS
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:n - 1]), expected_seq=0, as_game_master=True)
    assert spoken == []
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[n - 1:2 * n - 1]), expected_seq=n - 1,
                        as_game_master=True)
    assert spoken == [(battle.id, n - 1, n, True)]
    assert [e.seq for e in stored(battle)] == list(range(1, 2 * n))


def refused_batch():
    """SCRIPT's first 40 events with the 31st a turn end of the wrong side: payload-valid, refused by the rules."""
    events = list(SCRIPT[:40])
    at = 30
    bad = next(e for e in SCRIPT if e.type == "turn_ended")
    wrong = "attacker" if bad.data["side"] == "defender" else "defender"
    events[at] = engine.Event(at + 1, "turn_ended", {**bad.data, "side": wrong}, bad.version)
    return events, at


@pytest.mark.django_db(transaction=True)
def test_a_refusal_rolls_the_written_batch_back_and_gives_the_locked_paths_answer(campaign, spoken):
    events, _at = refused_batch()
    fast, slow = battle_create(campaign=campaign, name="refused fast"), battle_create(campaign=campaign, name="slow")
    before = position()
    with pytest.raises(RuleRefused) as got:
        battle_event_append(battle_id=fast.id, events=new(events), expected_seq=0, as_game_master=True)
    services.OPTIMISTIC = False
    try:
        with pytest.raises(RuleRefused) as want:
            battle_event_append(battle_id=slow.id, events=new(events), expected_seq=0, as_game_master=True)
    finally:
        services.OPTIMISTIC = True
    assert spoken == [(fast.id, 0, 40, False)]  # sent, refused, rolled back: the locked path answered
    assert got.value.as_dict() == want.value.as_dict() and got.value.as_dict()["rule_id"] == "V-TURN-12"
    assert stored(fast) == [] and position() == before and idle()
    fast.refresh_from_db()
    assert fast.head_seq == 0 and fast.rules is None
    # Nothing stays locked and the connection goes on: the valid batch is stored next (by the locked path,
    # since the refused state was dropped), and the one after it is written speculatively again.
    r = battle_event_append(battle_id=fast.id, events=new(SCRIPT[:40]), expected_seq=0, as_game_master=True)
    assert r.created and [e.seq for e in stored(fast)] == list(range(1, 41))
    battle_event_append(battle_id=fast.id, events=new(SCRIPT[40:80]), expected_seq=40, as_game_master=True)
    assert spoken[-1] == (fast.id, 40, 40, True) and [e.seq for e in stored(fast)] == list(range(1, 81))


@pytest.mark.parametrize("where", ["first rows", "later rows"])
@pytest.mark.django_db(transaction=True)
def test_a_bad_payload_is_answered_naming_its_field_and_nothing_is_written(campaign, spoken, where):
    """In the first rows it is refused before anything is sent; in a later statement's rows, after the
    first statement was sent: rolled back. Either way the locked path answers, naming the field."""
    battle = battle_create(campaign=campaign, name="bad payload")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:8]), expected_seq=0, as_game_master=True)
    events = list(SCRIPT[8:88])
    shots = [i for i, e in enumerate(events) if e.type == "fire"]
    shot = shots[0] if where == "first rows" else shots[-1]
    assert (shot < services.SPECULATE_FIRST_ROWS) == (where == "first rows")
    events[shot] = engine.Event(events[shot].seq, "fire", {**events[shot].data, "distance": "far"}, 1)
    before = position()
    with pytest.raises(InvalidInput) as exc:
        battle_event_append(battle_id=battle.id, events=new(events), expected_seq=8, as_game_master=True)
    assert exc.value.as_dict()["field"] == f"events[{shot}].data.distance"
    assert spoken == [(battle.id, 8, 80, False)]
    assert [e.seq for e in stored(battle)] == list(range(1, 9)) and position() == before and idle()


@pytest.mark.django_db(transaction=True)
def test_a_comparison_the_database_refuses_writes_nothing_and_the_locked_path_decides(campaign, spoken):
    """The battle's rules snapshot changed under this process's cached state (as a game master's
    reapplied rules would): the statement's comparison fails, it inserts no row and leaves the head,
    and the locked path decides the batch against the stored rules."""
    battle = battle_create(campaign=campaign, name="moved")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:20]), expected_seq=0, as_game_master=True)
    rules = {**Battle.objects.get(pk=battle.id).rules, "note": "changed elsewhere"}
    Battle.objects.filter(pk=battle.id).update(rules=rules)
    before = position()
    r = battle_event_append(battle_id=battle.id, events=new(SCRIPT[20:40]), expected_seq=20, as_game_master=True)
    assert spoken[-1] == (battle.id, 20, 20, True)  # the statement ran and was refused by its comparison
    assert r.created and [e.seq for e in stored(battle)] == list(range(1, 41)) and idle()
    assert position() == before + 20  # the refused statement took no positions
    assert engine.dump(STATE_CACHE.take(battle.id, 40, services._fingerprint(rules))) == replayed(battle)


@pytest.mark.django_db(transaction=True)
def test_a_failing_statement_is_rolled_back_and_the_locked_path_stores_the_batch_once(campaign, spoken):
    battle = battle_create(campaign=campaign, name="lost position row")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:20]), expected_seq=0, as_game_master=True)
    LogPosition.objects.filter(id=1).delete()  # the statement's positions are NULL: the NOT NULL column refuses
    r = battle_event_append(battle_id=battle.id, events=new(SCRIPT[20:40]), expected_seq=20, as_game_master=True)
    assert spoken[-1] == (battle.id, 20, 20, False) and idle()
    assert r.created and [e.seq for e in stored(battle)] == list(range(1, 41))
    battle.refresh_from_db()
    assert battle.head_seq == 40 and LogPosition.objects.get(id=1).position >= 40
    # and the retry of the same keys is answered as the retry it is, nothing stored twice
    again = battle_event_append(battle_id=battle.id, events=new(SCRIPT[20:40]), expected_seq=None,
                                as_game_master=True)
    assert not again.created and [e.seq for e in stored(battle)] == list(range(1, 41))


@pytest.mark.django_db(transaction=True)
def test_a_batch_with_a_correction_is_decided_first_and_written_after(campaign, spoken):
    """A correction may void an event already stored, and the events after it are then checked against
    the log folded again from the database: never while a statement is in flight on the connection."""
    battle = battle_create(campaign=campaign, name="correction")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:40]), expected_seq=0, as_game_master=True)
    spoken.clear()
    last = SCRIPT[39]
    fix = NewEvent("correction", {"voids_seq": 40, "reason": "ошибка записи"}, key="fix")
    batch = [fix, NewEvent(type=last.type, data=last.data, key="again"), *new(SCRIPT[40:60])]
    r = battle_event_append(battle_id=battle.id, events=batch, expected_seq=40, as_game_master=True)
    assert spoken == [] and r.created and [e.seq for e in r.events] == list(range(41, 63))
    assert [e.seq for e in stored(battle)] == list(range(1, 63)) and idle()


@pytest.mark.django_db(transaction=True)
def test_the_optimistic_statement_is_prepared_once_per_connection_and_the_orms_queries_are_not(campaign):
    """Django turns psycopg's preparation off unless ``prepare_threshold`` is set (config/settings/base.py):
    without it ``prepare=True`` is ignored and the statement is parsed and planned on every append."""
    battle = battle_create(campaign=campaign, name="prepared")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:4]), expected_seq=0, as_game_master=True)
    for lo in (4, 5, 6):  # single events (the group commit's lone path) and a large batch
        battle_event_append(battle_id=battle.id, events=new(SCRIPT[lo:lo + 1]), expected_seq=lo, as_game_master=True)
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[7:47]), expected_seq=7, as_game_master=True)
    for _ in range(3):
        list(Battle.objects.filter(pk=battle.id))
    with connection.cursor() as cur:
        cur.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [r[0] for r in cur.fetchall()]
    ours = [s for s in prepared if s.startswith("WITH b AS (UPDATE")]
    assert len(ours) == 2 and len(set(ours)) == 2, prepared  # the first events' statement and the next ones', once each
    assert not any(Battle._meta.db_table in s and s.lstrip().upper().startswith("SELECT") for s in prepared)


@pytest.mark.django_db(transaction=True)
def test_a_head_moved_to_exactly_the_batchs_end_is_refused_by_the_unique_seq_and_rolled_back(campaign, spoken):
    """Another process appended as many events as this batch holds: the first statement's comparison
    fails, but the later rows' guard (the head at head + n) would pass; the log's unique (battle, seq)
    refuses them, the whole transaction is rolled back and the client is told its expected_seq is stale."""
    from config.errors import Conflict

    battle = battle_create(campaign=campaign, name="exactly moved")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:20]), expected_seq=0, as_game_master=True)
    cached = STATE_CACHE.take_current(battle.id)  # this process's state at 20, kept aside
    services.OPTIMISTIC = False
    try:  # another process: 40 events, 21..60
        battle_event_append(battle_id=battle.id, events=new(SCRIPT[20:60]), expected_seq=20, as_game_master=True)
    finally:
        services.OPTIMISTIC = True
    STATE_CACHE.keep(battle.id, cached[0], cached[2].fingerprint, cached[1], cached[2])
    theirs = [(e.seq, e.key, e.position) for e in stored(battle)]
    before = position()
    with pytest.raises(Conflict) as exc:
        battle_event_append(battle_id=battle.id, events=new(SCRIPT[20:60], prefix="mine"), expected_seq=20,
                            as_game_master=True)
    assert exc.value.as_dict()["code"] == "stale_seq" and exc.value.as_dict()["current_seq"] == 60
    assert spoken[-1] == (battle.id, 20, 40, False)  # sent, refused by the database, rolled back
    assert [(e.seq, e.key, e.position) for e in stored(battle)] == theirs and position() == before and idle()


@pytest.mark.parametrize("at", [3, 35])
@pytest.mark.django_db(transaction=True)
def test_bad_text_in_a_large_batch_is_named_before_a_stale_seq_and_nothing_is_written(campaign, spoken, at):
    """A large batch's data is checked chunk by chunk as it is written (the first rows before anything
    is sent, later ones while the first are inserted); whatever it gets wrong is answered exactly as
    the whole batch's check names it, before a stale expected_seq, with nothing written."""
    battle = battle_create(campaign=campaign, name="bad text")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:8]), expected_seq=0, as_game_master=True)
    events = new(SCRIPT[8:48])
    events[at] = NewEvent(events[at].type, {**events[at].data, "note": "nul \x00 inside"}, key=events[at].key)
    before = position()
    for expected in (8, 3):  # current, then stale: the data's error comes first either way
        with pytest.raises(InvalidInput) as exc:
            battle_event_append(battle_id=battle.id, events=events, expected_seq=expected, as_game_master=True)
        assert exc.value.as_dict()["field"].startswith(f"events[{at}].data")
    assert [c[3] for c in spoken] == [False]  # tried once (the stale one never reaches the write)
    assert [e.seq for e in stored(battle)] == list(range(1, 9)) and position() == before and idle()


@pytest.mark.django_db(transaction=True)
def test_a_large_batch_with_a_repeated_key_is_refused_by_the_whole_batch_check_at_once(campaign, spoken):
    battle = battle_create(campaign=campaign, name="repeated key")
    events = new(SCRIPT[:40])
    events[30] = NewEvent(events[30].type, events[30].data, key=events[2].key)
    events[20] = NewEvent(events[20].type, {**events[20].data, "note": "\x00"}, key=events[20].key)
    with pytest.raises(InvalidInput) as exc:
        battle_event_append(battle_id=battle.id, events=events, expected_seq=0, as_game_master=True)
    assert exc.value.as_dict()["field"].startswith("events[20].data")  # the first wrong thing, as before
    assert spoken == [] and stored(battle) == []


@pytest.mark.django_db(transaction=True)
def test_large_batches_racing_single_events_keep_seqs_gapless_and_a_catch_up_reader_misses_nothing(campaign,
                                                                                                  spoken):
    """Writers of large batches (written while decided, several statements in one transaction) and of
    single events (the group commit) on their own battles and on a shared one: every battle's seqs
    stay gapless, every acknowledged event is stored once, and a reader of the global position,
    following as they commit, sees every event once and in order."""
    import threading

    from django.db import close_old_connections

    from config.errors import Conflict
    from tests.battles.test_concurrency import follow_positions, run_threads

    own = [battle_create(campaign=campaign, name=f"large {i}") for i in range(4)]
    shared = battle_create(campaign=campaign, name="shared large")
    battle_event_append(battle_id=shared.id, events=new(SCRIPT[:8]), expected_seq=0, as_game_master=True)
    acked, lock, stop, seen = [], threading.Lock(), threading.Event(), []

    def writer(i):
        close_old_connections()
        if i < len(own):  # 8 events, then batches of 16 and 40, then single events
            b = own[i]
            for lo, hi in ((0, 8), (8, 24), (24, 64), (64, 65), (65, 66), (66, 106)):
                battle_event_append(battle_id=b.id, events=new(SCRIPT[lo:hi]), expected_seq=lo, as_game_master=True)
            return
        head, done = 8, 0  # the shared battle: 20-event batches with expected_seq, retried on 409
        while done < 3:
            try:
                r = battle_event_append(battle_id=shared.id, events=new(SCRIPT[head:head + 20], prefix=f"w{i}."),
                                        expected_seq=head, as_game_master=True)
            except Conflict as exc:
                head = exc.extra["current_seq"]
                continue
            with lock:
                acked.extend(e.seq for e in r.events)
            head, done = head + 20, done + 1

    rt = follow_positions(stop, seen)
    run_threads(len(own) + 2, writer)
    stop.set()
    rt.join(60)
    for b in own:
        assert [e.seq for e in stored(b)] == list(range(1, 107))
        assert engine.dump(STATE_CACHE.take(b.id, 106, services._fingerprint(Battle.objects.get(pk=b.id).rules))) \
            == replayed(b)
    shared_seqs = [e.seq for e in stored(shared)]
    assert shared_seqs == list(range(1, len(shared_seqs) + 1)) and sorted(acked) == shared_seqs[8:]
    assert len(acked) == min(120, 8 + 6 * 20) - 8  # six batches of 20 (the last cut at the script's end)
    assert seen == list(BattleEvent.objects.order_by("position").values_list("position", flat=True))
    own_ids = {b.id for b in own}
    assert sum(ok for b, _h, _n, ok in spoken if b in own_ids) == 3 * len(own)  # every large batch, speculatively


@pytest.mark.django_db(transaction=True)
def test_data_nested_past_the_cap_in_a_later_chunk_is_named_as_too_deep_and_nothing_is_written(campaign, spoken):
    """The chunk check does not count depth (the parser refuses deeper data before the chunk is
    sent): the batch still gets the depth cap's answer, naming the event, with nothing written."""
    battle = battle_create(campaign=campaign, name="too deep")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:8]), expected_seq=0, as_game_master=True)
    events = new(SCRIPT[8:88])
    at = 60
    deep: object = "x"
    for _ in range(services.EVENT_DATA_MAX_DEPTH + 1):
        deep = {"a": deep}
    events[at] = NewEvent(events[at].type, {**events[at].data, "deep": deep}, key=events[at].key)
    before = position()
    with pytest.raises(InvalidInput) as exc:
        battle_event_append(battle_id=battle.id, events=events, expected_seq=8, as_game_master=True)
    assert exc.value.as_dict()["field"] == f"events[{at}].data" and exc.value.as_dict()["code"] == "too_deep"
    assert spoken == [(battle.id, 8, 80, False)]
    assert [e.seq for e in stored(battle)] == list(range(1, 9)) and position() == before and idle()


@pytest.mark.django_db(transaction=True)
def test_dice_the_service_rolls_in_a_later_chunk_are_rolled_and_stored_with_their_provenance(campaign, spoken,
                                                                                           monkeypatch):
    """A chunk whose text has no "rolled" die goes to the parser as sent; one with a die to roll has it
    rolled by the service (V-TEST-1) and stored as rolled, with its source, as on the locked path."""
    battle = battle_create(campaign=campaign, name="rolled dice")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:8]), expected_seq=0, as_game_master=True)
    events = new(SCRIPT[8:88])
    at = next(i for i, e in enumerate(events) if i >= 40 and e.type == "fire" and e.data.get("struck"))
    face = events[at].data["struck"][0]["die"]["value"]
    struck = [{**events[at].data["struck"][0], "die": {"source": "rolled"}}, *events[at].data["struck"][1:]]
    events[at] = NewEvent("fire", {**events[at].data, "struck": struck}, key=events[at].key)
    faces = []
    monkeypatch.setattr(services, "_secure_roll", lambda sides: faces.append(sides) or face)
    battle_event_append(battle_id=battle.id, events=events, expected_seq=8, as_game_master=True)
    assert spoken == [(battle.id, 8, 80, True)] and faces == [20]
    die = stored(battle)[8 + at].data["struck"][0]["die"]
    assert die == {"value": face, "source": "rolled", "rng": services.SERVICE_RNG}
    assert len(stored(battle)) == 88 and replayed(battle) == engine.dump(engine.fold(
        [*SCRIPT[:8], *[engine.Event(e.seq, e.type, e.data, 1) for e in SCRIPT[8:88]]]))


@pytest.mark.parametrize("bad", ["\x00", "\ud800"])
@pytest.mark.parametrize("at", [3, 35])
@pytest.mark.django_db(transaction=True)
def test_bad_text_in_a_field_the_payload_keeps_is_named_and_nothing_is_written(campaign, spoken, bad, at):
    """A chunk that parses as sent is vouched for by its rows' own text (``_rows_vouch``); a NUL or a
    lone surrogate in a string the payload keeps (a shooter's id) is not, and is named as the whole
    batch's check names it, with nothing written and the connection idle."""
    battle = battle_create(campaign=campaign, name="bad kept text")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:8]), expected_seq=0, as_game_master=True)
    events = new(SCRIPT[8:48])
    shots = [i for i, e in enumerate(events) if e.type == "fire"]
    shot = min(shots, key=lambda i: abs(i - at))
    events[shot] = NewEvent("fire", {**events[shot].data, "shooter": f"x{bad}y"}, key=events[shot].key)
    before = position()
    with pytest.raises(InvalidInput) as exc:
        battle_event_append(battle_id=battle.id, events=events, expected_seq=8, as_game_master=True)
    assert exc.value.as_dict()["field"] == f"events[{shot}].data.shooter"
    assert [e.seq for e in stored(battle)] == list(range(1, 9)) and position() == before and idle()


@pytest.mark.django_db(transaction=True)
def test_a_huge_integer_in_a_float_field_takes_the_longer_check_and_is_stored_as_the_locked_path_would(
        campaign, spoken):
    battle = battle_create(campaign=campaign, name="huge number")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:8]), expected_seq=0, as_game_master=True)
    events = new(SCRIPT[8:48])
    shot = next(i for i, e in enumerate(events) if e.type == "fire" and i > services.SPECULATE_FIRST_ROWS)
    events[shot] = NewEvent("fire", {**events[shot].data, "distance": 10**20}, key=events[shot].key)
    try:
        battle_event_append(battle_id=battle.id, events=events, expected_seq=8, as_game_master=True)
    except RuleRefused:  # the engine may refuse a shot that far; then nothing is written either way
        assert [e.seq for e in stored(battle)] == list(range(1, 9)) and idle()
        return
    kept = stored(battle)[8 + shot]
    assert kept.data["distance"] == 1e20  # (jsonb keeps it as the number 100000000000000000000)
    assert replayed(battle) == engine.dump(engine.fold([engine.Event(e.seq, e.type, e.data, e.schema_version)
                                                        for e in stored(battle)]))


@pytest.mark.parametrize("bad", ["\x00", "\ud800"])
@pytest.mark.django_db(transaction=True)
def test_bad_text_in_a_later_events_key_is_named_before_the_first_rows_are_sent(campaign, spoken, bad):
    """Every key of the batch goes with the first statement (the check that none is stored), before a
    later chunk is checked: a key with a NUL or a lone surrogate sends the batch to the whole-batch
    check at once (once a 500: the surrogate could not be encoded for the database)."""
    battle = battle_create(campaign=campaign, name="bad key")
    battle_event_append(battle_id=battle.id, events=new(SCRIPT[:8]), expected_seq=0, as_game_master=True)
    events = new(SCRIPT[8:48])
    events[35] = NewEvent(events[35].type, events[35].data, key=f"k{bad}")
    with pytest.raises(InvalidInput) as exc:
        battle_event_append(battle_id=battle.id, events=events, expected_seq=8, as_game_master=True)
    assert exc.value.as_dict()["field"] == "events[35].key"
    assert spoken == [] and [e.seq for e in stored(battle)] == list(range(1, 9)) and idle()
