"""The optimistic one-statement append (PostgreSQL) gives the locked path's
answers: it writes only when the head, the rules snapshot and the campaign
are as the cached state says, and anything else falls back (docs/append.md).
And replays are queued coalesced: at most one pending per battle."""
import psycopg
import pytest
from django.db import connection

from battles import engine, replays, services
from battles.models import Battle, BattleEvent
from battles.services import STATE_CACHE, NewEvent, battle_create, battle_event_append
from config.errors import Conflict, RuleRefused

START = NewEvent("battle_started", {"attacker": "A", "defender": "D"})


def turn(seq):
    k = seq - 2
    return NewEvent("turn_ended", {"side": ("defender", "attacker")[k % 2], "turn": k // 2 + 1})


def fold_log(battle):
    return engine.fold([engine.Event(e.seq, e.type, e.data, e.schema_version)
                        for e in BattleEvent.objects.filter(battle=battle).order_by("seq")])


@pytest.fixture
def statements(monkeypatch):
    """The optimistic statements sent (the one psycopg cursor Django does not wrap)."""
    sent = []
    real = psycopg.Cursor.execute

    def spy(self, query, params=None, **kw):
        if isinstance(query, str) and query.startswith("WITH b AS"):
            sent.append((params["id"], params["head"], params["n"]) if isinstance(params, dict) else query)
        return real(self, query, params, **kw)

    monkeypatch.setattr(psycopg.Cursor, "execute", spy)
    return sent


def on_pg():
    return connection.vendor == "postgresql"


@pytest.mark.django_db(transaction=True)
def test_appends_with_the_state_cached_are_one_statement_each(campaign, statements):
    from battles.models import LogPosition

    LogPosition.objects.get_or_create(id=1)  # a flushed test database lost it (the locked path recreates it)
    battle = battle_create(campaign=campaign, name="one statement")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    for seq in range(2, 6):
        r = battle_event_append(battle_id=battle.id, events=[turn(seq)], expected_seq=seq - 1)
        assert [e.seq for e in r.events] == [seq] and (r.events[0].pk is not None or not on_pg())
    stored = list(BattleEvent.objects.filter(battle=battle).order_by("seq"))
    assert [e.seq for e in stored] == [1, 2, 3, 4, 5]
    assert [e.position for e in stored] == sorted(e.position for e in stored)
    battle.refresh_from_db()
    assert battle.head_seq == 5 and battle.rules is not None  # the first events snapshot the rules data
    if on_pg():
        assert len(statements) == 5, statements  # the first append too: battle_create left the state before it
    assert engine.dump(STATE_CACHE.take(battle.id, 5, services._fingerprint(battle.rules))) == engine.dump(
        fold_log(battle))


@pytest.mark.django_db(transaction=True)
def test_a_cached_state_behind_the_head_never_writes_and_the_append_is_checked_against_the_log(campaign):
    """Another process appended: this process's state is at seq 1, the head at 2.
    Unconditional: the compare-and-swap fails and the locked path decides.
    The event valid after seq 1 (defender's turn 1) is refused after seq 2."""
    battle = battle_create(campaign=campaign, name="behind")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    seq1, state1, meta = STATE_CACHE.take_current(battle.id)
    battle_event_append(battle_id=battle.id, events=[turn(2)], expected_seq=1)  # locked path (no cache)
    STATE_CACHE.keep(battle.id, seq1, meta.fingerprint, state1, meta)  # the other process's stale state
    with pytest.raises(RuleRefused):
        battle_event_append(battle_id=battle.id, events=[turn(2)], expected_seq=None)
    assert list(BattleEvent.objects.filter(battle=battle).values_list("seq", flat=True).order_by("seq")) == [1, 2]
    r = battle_event_append(battle_id=battle.id, events=[turn(3)], expected_seq=None)
    assert r.events[0].seq == 3


@pytest.mark.django_db(transaction=True)
def test_a_state_behind_the_clients_expected_seq_catches_up_from_the_log(campaign):
    battle = battle_create(campaign=campaign, name="catch up")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    seq1, state1, meta = STATE_CACHE.take_current(battle.id)
    battle_event_append(battle_id=battle.id, events=[turn(2), turn(3)], expected_seq=1)
    STATE_CACHE.keep(battle.id, seq1, meta.fingerprint, state1, meta)
    r = battle_event_append(battle_id=battle.id, events=[turn(4)], expected_seq=3)
    assert r.events[0].seq == 4
    assert engine.dump(STATE_CACHE.take(battle.id, 4, meta.fingerprint)) == engine.dump(fold_log(battle))


@pytest.mark.django_db(transaction=True)
def test_a_stale_expected_seq_is_409_with_the_current_seq_and_keys_are_still_a_retry(campaign):
    battle = battle_create(campaign=campaign, name="stale")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    first = battle_event_append(battle_id=battle.id, events=[NewEvent(**{**turn(2).__dict__, "key": "k2"})],
                                expected_seq=1)
    with pytest.raises(Conflict) as exc:
        battle_event_append(battle_id=battle.id, events=[turn(3)], expected_seq=1)
    assert exc.value.code == "stale_seq" and exc.value.extra == {"current_seq": 2}
    again = battle_event_append(battle_id=battle.id, events=[NewEvent(**{**turn(2).__dict__, "key": "k2"})],
                                expected_seq=1)
    assert not again.created and [e.seq for e in again.events] == [e.seq for e in first.events]


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
    type(campaign).objects.filter(pk=campaign.pk).update(status="running")
    other = battle_create(campaign=campaign, name="rules")
    battle_event_append(battle_id=other.id, events=[START], expected_seq=0)
    Battle.objects.filter(pk=other.pk).update(rules={"talk_distance": 9})  # the master re-applied other rules
    battle_event_append(battle_id=other.id, events=[turn(2)], expected_seq=1)
    assert BattleEvent.objects.filter(battle=other).count() == 2
    fp = services._fingerprint({"talk_distance": 9})
    assert STATE_CACHE.take(other.id, 2, fp) is not None  # decided under the rules the battle now has


# --- coalesced replays ----------------------------------------------------------------
class FakeRedis:
    def __init__(self):
        self.keys = {}

    def pipeline(self, transaction=False):
        return FakePipe(self)

    def delete(self, key):
        self.keys.pop(key, None)


class FakePipe:
    def __init__(self, r):
        self.r, self.ops = r, []

    def set(self, key, value, nx=False, ex=None):
        self.ops.append(key)

    def execute(self):
        out = []
        for key in self.ops:
            out.append(key not in self.r.keys)
            self.r.keys.setdefault(key, "1")
        return out


def test_at_most_one_replay_is_pending_per_battle_and_a_started_one_lets_the_next_queue():
    redis, published = FakeRedis(), []
    c = replays.Coalescer(redis=lambda: redis, publish=published.append)
    c.dispatch([1, 2])
    c.dispatch([1])  # battle 1's replay has not started: nothing more to queue
    assert published == [1, 2] and c.coalesced == 1
    c.clear(1)  # the replay of battle 1 starts (before it reads the log)
    c.dispatch([1, 2])
    assert published == [1, 2, 1] and c.coalesced == 2


def test_a_publish_that_fails_clears_the_flag_so_the_next_append_tries_again():
    redis = FakeRedis()

    def down(battle_id):
        raise ConnectionError("broker down")

    c = replays.Coalescer(redis=lambda: redis, publish=down)
    c.dispatch([7])
    assert redis.keys == {} and c.published == 0


def test_the_replay_task_clears_the_flag_before_it_reads_the_log(monkeypatch, settings):
    from battles import tasks

    order = []
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(replays.COALESCER, "clear", lambda battle_id: order.append(("clear", battle_id)))
    monkeypatch.setattr(services, "battle_replay", lambda battle_id, rebuild: order.append(("replay", battle_id))
                        or services.ReplayResult(battle_id, 0, 0, False, False))
    tasks.replay_battle.run(5)
    assert order == [("clear", 5), ("replay", 5)]


def test_handing_over_a_battle_returns_at_once_and_the_dispatcher_publishes_it(settings):
    import threading

    settings.CELERY_TASK_ALWAYS_EAGER = False
    redis, done = FakeRedis(), threading.Event()
    published = []
    c = replays.Coalescer(redis=lambda: redis, publish=lambda b: (published.append(b), done.set()))
    c.add(3)
    assert done.wait(5) and published == [3]


def test_hand_overs_within_the_linger_are_flagged_in_one_round(settings):
    import threading
    import time

    settings.CELERY_TASK_ALWAYS_EAGER = False
    redis, done, rounds = FakeRedis(), threading.Event(), []
    c = replays.Coalescer(redis=lambda: redis, publish=lambda b: None, linger=0.3)
    c.dispatch = lambda ids: (rounds.append(sorted(ids)), done.set())
    c.add(1)
    time.sleep(0.05)  # well inside the linger: without it, battle 1's round would be gone by now
    c.add(2)
    assert done.wait(5) and rounds == [[1, 2]]


@pytest.mark.django_db(transaction=True)
def test_a_finished_campaign_is_answered_before_a_stale_seq_as_on_the_locked_path(campaign):
    battle = battle_create(campaign=campaign, name="finished and stale")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    battle_event_append(battle_id=battle.id, events=[turn(2)], expected_seq=1)
    type(campaign).objects.filter(pk=campaign.pk).update(status="finished")
    with pytest.raises(Conflict) as exc:
        battle_event_append(battle_id=battle.id, events=[turn(3)], expected_seq=1)
    assert exc.value.code == "campaign_finished"


@pytest.mark.django_db(transaction=True)
def test_grouped_commits_keep_seqs_gapless_and_a_catch_up_reader_misses_nothing(campaign):
    """Writers on their own battles and on a shared one commit in groups
    (PostgreSQL); every battle's seqs stay gapless, every acknowledged append
    is stored once, and a reader of the global position sees every event."""
    import threading

    from django.db import close_old_connections

    from tests.battles.test_concurrency import follow_positions, run_threads

    own = [battle_create(campaign=campaign, name=f"own {i}") for i in range(6)]
    shared = battle_create(campaign=campaign, name="shared")
    battle_event_append(battle_id=shared.id, events=[START], expected_seq=0)
    services.GROUP_COMMIT.groups = services.GROUP_COMMIT.grouped = 0
    acked, lock, stop, seen = [], threading.Lock(), threading.Event(), []

    def writer(i):
        close_old_connections()
        if i < len(own):
            b = own[i]
            battle_event_append(battle_id=b.id, events=[START], expected_seq=0)
            for seq in range(2, 14):
                battle_event_append(battle_id=b.id, events=[turn(seq)], expected_seq=seq - 1)
            return
        head, done = 1, 0
        while done < 6:
            try:
                r = battle_event_append(battle_id=shared.id, events=[turn(head + 1)], expected_seq=head)
            except Conflict as exc:
                head = exc.extra["current_seq"]
                continue
            with lock:
                acked.append(r.events[0].seq)
            head, done = head + 1, done + 1

    rt = follow_positions(stop, seen)
    run_threads(len(own) + 2, writer)
    stop.set()
    rt.join(60)
    for b in own:
        assert list(BattleEvent.objects.filter(battle=b).order_by("seq").values_list("seq", flat=True)) == list(
            range(1, 14))
    shared_seqs = list(BattleEvent.objects.filter(battle=shared).order_by("seq").values_list("seq", flat=True))
    assert shared_seqs == list(range(1, 14)) and sorted(acked) == shared_seqs[1:]
    assert seen == list(BattleEvent.objects.order_by("position").values_list("position", flat=True))
    if on_pg():
        assert services.GROUP_COMMIT.groups > 0, "no two appends ever shared a commit"


def held_group(campaign, monkeypatch, batches):
    """Battles, each after its first event, and the optimistic statements that would append ``batches``
    (one a battle) as the group commit is handed them: held, not sent, so nothing is written."""
    if not on_pg():
        pytest.skip("the group commit is PostgreSQL's")
    from battles.models import LogPosition

    LogPosition.objects.get_or_create(id=1)
    battles = [battle_create(campaign=campaign, name=f"grouped {i}") for i in range(len(batches))]
    for b in battles:
        battle_event_append(battle_id=b.id, events=[START], expected_seq=0)
    held = []

    def hold(sql, params, battle_id):
        held.append(services._Pending(sql, params, battle_id))
        return []

    monkeypatch.setattr(services.GROUP_COMMIT, "execute", hold)
    for b, events in zip(battles, batches, strict=True):
        assert services._append_optimistic(b.id, events, 1, None, True, None) is None
    monkeypatch.undo()
    return battles, held


@pytest.mark.django_db(transaction=True)
def test_a_group_sends_its_statements_bound_and_prepared(campaign, monkeypatch):
    """The group commit's statements go as psycopg's own server-bound cursors,
    prepared once per connection, like an append alone: Django's default
    cursor (ClientCursor) would send each as new text with its values inlined,
    which the database parses and plans every time (docs/append.md, "Seventh
    pass")."""
    battles, held = held_group(campaign, monkeypatch, [[turn(2)], [turn(2)]])
    assert len(held) == 2 and not BattleEvent.objects.filter(seq=2).exists()

    def prepared():
        with connection.cursor() as cur:
            cur.execute("SELECT statement, parameter_types::text FROM pg_prepared_statements")
            return cur.fetchall()

    connection.ensure_connection()
    before = len(prepared())
    services.GROUP_COMMIT._run(held)
    assert all(len(item.rows) == 1 for item in held)
    assert sorted(BattleEvent.objects.filter(seq=2).values_list("battle_id", flat=True)) == [b.id for b in battles]
    statements = prepared()
    assert len(statements) == before + 2  # the battles' lock and the optimistic statement, once for both
    texts = [s for s, _ in statements]
    assert any(s.startswith("WITH b AS") and "$1" in s for s in texts)
    assert any(s.startswith("SELECT id FROM") and "FOR UPDATE" in s for s in texts)
    for item in held:  # once more, for the same battles: the prepared statements again, no new ones
        item.params = {**item.params, "head": 2, "keys": "[]", "rows": item.params["rows"]}
    services.GROUP_COMMIT._run(held)
    assert all(len(item.rows) == 1 for item in held) and len(prepared()) == before + 2


@pytest.mark.django_db(transaction=True)
def test_a_stored_key_is_refused_by_the_index_and_answered_by_the_locked_path(campaign, statements):
    """With the state cached, a batch under a key already stored (here with
    another event, which the engine accepts) goes to the one statement, which
    the unique index refuses whole: there is no lookup of the keys before it.
    Nothing is written, the head stays, and the locked path answers the key's
    misuse; the plain retry is answered with the stored events."""
    from battles.models import LogPosition

    LogPosition.objects.get_or_create(id=1)
    battle = battle_create(campaign=campaign, name="stored key")
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    ev = NewEvent("turn_ended", turn(2).data, key="k-2")
    first = battle_event_append(battle_id=battle.id, events=[ev], expected_seq=None)
    assert first.created and [e.seq for e in first.events] == [2]
    sent = len(statements)
    with pytest.raises(Conflict) as exc:
        battle_event_append(battle_id=battle.id, events=[NewEvent("turn_ended", turn(3).data, key="k-2")],
                            expected_seq=None)
    assert exc.value.code == "idempotency_conflict"
    if on_pg():
        assert len(statements) == sent + 1  # the optimistic statement was sent, and refused
    assert list(BattleEvent.objects.filter(battle=battle).values_list("seq", flat=True).order_by("seq")) == [1, 2]
    battle.refresh_from_db()
    assert battle.head_seq == 2
    again = battle_event_append(battle_id=battle.id, events=[ev], expected_seq=None)
    assert not again.created and [(e.seq, e.key, e.position) for e in again.events] == [
        (e.seq, e.key, e.position) for e in first.events]
    nxt = battle_event_append(battle_id=battle.id, events=[turn(3)], expected_seq=2)
    assert [e.seq for e in nxt.events] == [3]


@pytest.mark.django_db(transaction=True)
def test_a_group_with_a_stored_key_writes_nothing_and_is_logged_as_expected(campaign, monkeypatch, caplog):
    """A retried key in a group fails the group's transaction at the unique
    index: no append of the group is written (each then runs alone), and the
    failure is logged at INFO, a retry being no fault of the service's."""
    import logging

    battles, held = held_group(campaign, monkeypatch, [[NewEvent("turn_ended", turn(2).data, key=f"k-{i}")]
                                                       for i in range(2)])
    services.GROUP_COMMIT._run(held)
    assert all(len(item.rows) == 1 for item in held)
    held[0].params = {**held[0].params, "head": 2}  # the first battle's key again, at its new head
    held[1].params = {**held[1].params, "head": 2, "rows": held[1].params["rows"].replace('"k-1"', '"k-1b"')}
    with caplog.at_level(logging.INFO, logger="battles.services"):
        services.GROUP_COMMIT._run(held)
    assert [item.rows for item in held] == [None, None]
    assert list(BattleEvent.objects.filter(battle_id__in=[b.id for b in battles]).order_by("battle_id", "seq")
                .values_list("seq", "key")) == [(1, None), (2, "k-0"), (1, None), (2, "k-1")]
    failures = [r for r in caplog.records if "group commit" in r.getMessage()]
    assert failures and all(r.levelno == logging.INFO for r in failures)
