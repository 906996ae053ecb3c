"""Replay: the Celery task folds the log into the projection; idempotent,
monotonic, rebuildable, and swept when it lags."""
import pytest
from django.core.management import call_command

from battles import engine
from battles.log import projections
from battles.log.projections import projection_store
from battles.models import BattleProjection
from battles.services import NewEvent, battle_event_append, battle_replay, projections_rebuild, projections_sweep
from battles.tasks import replay_battle, sweep_lagging_projections

START = NewEvent("battle_started", {"attacker": "A", "defender": "D"})


def turns(n, start_turn=1):
    out = []
    for t in range(start_turn, start_turn + n):
        out += [NewEvent("turn_ended", {"side": "defender", "turn": t}),
                NewEvent("turn_ended", {"side": "attacker", "turn": t})]
    return out


def append(battle, events, expected=None, gm=False):
    return battle_event_append(battle_id=battle.id, events=events, expected_seq=expected, as_game_master=gm)


def projection(battle):
    return BattleProjection.objects.get(battle=battle)


@pytest.mark.django_db
class TestReplayTask:
    def test_replay_folds_the_log_into_the_projection_with_its_seq(self, battle):
        append(battle, [START, *turns(2)])
        replay_battle.run(battle.id)
        proj = projection(battle)
        assert proj.seq == 5
        assert proj.state["turn"] == 3 and proj.state["side_to_move"] == "defender"

    def test_replay_twice_gives_the_same_projection(self, battle):
        append(battle, [START, *turns(1)])
        first = replay_battle.run(battle.id)
        state = projection(battle).state
        second = replay_battle.run(battle.id)
        assert first["written"] and not second["written"]
        assert projection(battle).state == state

    def test_projection_never_moves_backwards(self, battle):
        """A slow worker that folded fewer events cannot overwrite a newer projection."""
        append(battle, [START, *turns(1)])
        old = engine.fold([engine.Event(1, "battle_started", {"attacker": "A", "defender": "D", "ruleset": "v11.2"})])
        replay_battle.run(battle.id)
        assert projection_store(battle.id, old, allow_equal=False) is False
        assert projection_store(battle.id, old, allow_equal=True) is False
        assert projection(battle).seq == 3

    def test_replay_is_incremental(self, battle, django_assert_max_num_queries):
        append(battle, [START, *turns(3)])
        replay_battle.run(battle.id)
        append(battle, turns(1, start_turn=4))
        result = battle_replay(battle_id=battle.id)
        assert (result.seq, result.applied, result.rebuilt) == (9, 2, False)

    def test_unknown_battle_is_a_harmless_no_op(self, db):
        assert replay_battle.run(424242)["written"] is False

    def test_task_is_configured_to_survive_a_lost_worker(self):
        assert replay_battle.acks_late and replay_battle.reject_on_worker_lost


@pytest.mark.django_db
class TestCorrections:
    """V-TURN-13: a mistake is voided by a correction event; replay skips it."""

    def test_v_turn_13_correction_voids_an_applied_event_and_replay_skips_it(self, battle):
        append(battle, [START, *turns(1), NewEvent("battle_ended", {"winner": "attacker"})])
        replay_battle.run(battle.id)
        assert projection(battle).state["status"] == "ended"
        append(battle, [NewEvent("correction", {"voids_seq": 4, "reason": "записали не тот бой"})], gm=True)
        result = battle_replay(battle_id=battle.id)
        assert result.rebuilt
        state = projection(battle).state
        assert state["status"] == "running" and state["winner"] is None
        assert state["voided"] == [4] and state["last_seq"] == 5
        # the voided event is still in the log
        assert battle.events.filter(seq=4, type="battle_ended").exists()

    def test_v_turn_13_after_the_correction_the_battle_goes_on(self, battle):
        append(battle, [START, *turns(1), NewEvent("battle_ended", {"winner": "attacker"})])
        append(battle, [NewEvent("correction", {"voids_seq": 4, "reason": "рано"})], gm=True)
        append(battle, turns(1, start_turn=2))
        battle_replay(battle_id=battle.id)
        assert projection(battle).state["turn"] == 3

    @pytest.mark.parametrize(("voids", "why"), [(5, "later"), (2, "voided twice"), (4, "a correction"),
                                                (1, "the start")])
    def test_v_turn_13_bad_corrections_are_refused(self, battle, voids, why):
        from config.errors import RuleRefused

        append(battle, [START, *turns(1)])
        append(battle, [NewEvent("correction", {"voids_seq": 2, "reason": "x"})], gm=True)
        with pytest.raises(RuleRefused) as exc:
            append(battle, [NewEvent("correction", {"voids_seq": voids, "reason": why})], gm=True)
        assert exc.value.rule_id == "V-TURN-13"

    def test_chunked_replay_equals_one_pass_with_corrections_anywhere(self, battle, settings):
        append(battle, [START, *turns(5)])
        append(battle, [NewEvent("correction", {"voids_seq": 3, "reason": "x"})], gm=True)
        append(battle, turns(2, start_turn=6))
        settings.SHTAB = dict(settings.SHTAB, REPLAY_CHUNK=3)
        chunked = battle_replay(battle_id=battle.id, rebuild=True)
        chunked_state = projection(battle).state
        settings.SHTAB = dict(settings.SHTAB, REPLAY_CHUNK=10_000)
        battle_replay(battle_id=battle.id, rebuild=True)
        assert chunked.seq == 16 and projection(battle).state == chunked_state


@pytest.mark.django_db
class TestRebuildAndSweep:
    def test_rebuild_produces_exactly_the_incremental_projection(self, battle):
        append(battle, [START])
        replay_battle.run(battle.id)
        for t in range(1, 4):
            append(battle, turns(1, start_turn=t))
            replay_battle.run(battle.id)
        incremental = projection(battle).state
        BattleProjection.objects.filter(battle=battle).update(seq=0, state={})
        call_command("rebuild_projections", "--battle", str(battle.id))
        assert projection(battle).state == incremental and projection(battle).seq == 7

    def test_rebuild_all_repairs_a_corrupted_projection(self, battle, campaign):
        from battles.services import battle_create

        other = battle_create(campaign=campaign, name="2")
        append(battle, [START, *turns(1)])
        append(other, [START])
        projections_rebuild()
        good = projection(battle).state
        BattleProjection.objects.filter(battle=battle).update(state={"status": "garbage", "last_seq": 3})
        results = projections_rebuild()
        assert {r.battle_id for r in results} == {battle.id, other.id}
        assert projection(battle).state == good

    @pytest.fixture
    def queued(self, monkeypatch):
        """A fake broker: records what would be queued (the worker can't see
        this test's uncommitted transaction anyway)."""
        calls = []
        monkeypatch.setattr("battles.log.replays.schedule", calls.append)
        return calls

    def test_sweep_requeues_every_lagging_battle(self, battle, campaign, queued):
        from battles.services import battle_create

        current = battle_create(campaign=campaign, name="current")
        empty = battle_create(campaign=campaign, name="no events yet")
        append(battle, [START])  # on_commit never fires inside the test transaction: it lags
        append(current, [START])
        replay_battle.run(current.id)
        assert projections_sweep() == [battle.id] and queued == [battle.id]
        replay_battle.run(battle.id)
        assert projections_sweep() == []
        assert empty.id not in queued

    def test_sweep_finds_a_battle_whose_projection_row_is_missing(self, battle, queued):
        append(battle, [START])
        BattleProjection.objects.filter(battle=battle).delete()
        assert projections_sweep() == [battle.id]
        replay_battle.run(battle.id)
        assert projection(battle).seq == 1

    def test_sweep_task_and_command(self, battle, queued):
        append(battle, [START])
        assert sweep_lagging_projections.run() == [battle.id]
        call_command("sweep_projections")
        assert queued == [battle.id, battle.id]


@pytest.mark.django_db
class TestStateEndpoint:
    def test_state_reports_seq_and_whether_it_is_current(self, battle, anon_client):
        append(battle, [START, *turns(1)])
        body = anon_client.get(f"/api/battles/{battle.id}/state/").json()
        assert (body["seq"], body["head_seq"], body["current"]) == (0, 3, False)
        replay_battle.run(battle.id)
        body = anon_client.get(f"/api/battles/{battle.id}/state/").json()
        assert (body["seq"], body["current"]) == (3, True)
        assert body["state"]["turn"] == 2

    def test_state_is_read_in_one_query(self, battle, anon_client, django_assert_num_queries):
        from battles.selectors import battle_state_get

        append(battle, [START])
        with django_assert_num_queries(1):
            battle_state_get(battle_id=battle.id)

    def test_unknown_battle_state_is_404(self, anon_client, db):
        assert anon_client.get("/api/battles/9999/state/").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.worker
def test_append_commits_then_the_worker_replays(replay_worker, campaign, player, player_client, enlist):
    """End to end through HTTP and the replay worker (a real Celery worker process under CI)."""
    from battles.services import battle_create

    battle = battle_create(campaign=campaign, name="live")
    enlist(battle, player, "defender")  # the game master starts the battle (V-TURN-2), the defender ends his turn
    from battles.services import NewEvent, battle_event_append

    battle_event_append(battle_id=battle.id, events=[NewEvent("battle_started", {"attacker": "A", "defender": "D"})],
                        expected_seq=0, as_game_master=True)
    r = player_client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": 1, "events": [
        {"type": "turn_ended", "data": {"side": "defender", "turn": 1}},
    ]}, format="json")
    assert r.status_code == 201
    proj = replay_worker.wait(battle.id, 2)
    assert proj is not None, "the projection was not replayed"
    assert proj.state["side_to_move"] == "attacker"
    body = player_client.get(f"/api/battles/{battle.id}/state/").json()
    assert body["current"] is True


@pytest.mark.django_db(transaction=True)
@pytest.mark.worker
def test_sweep_through_the_worker_catches_up_a_lost_replay(replay_worker, campaign):
    """A replay message lost (Redis outage, killed worker): the sweep requeues it."""
    from unittest import mock

    from battles.services import battle_create

    battle = battle_create(campaign=campaign, name="lost")
    with mock.patch("battles.log.store.replays"):  # the message never reaches the broker
        append(battle, [START, *turns(1)])
    assert BattleProjection.objects.get(battle=battle).seq == 0
    assert battle.id in projections_sweep()
    proj = replay_worker.wait(battle.id, 3)
    assert proj is not None and proj.seq == 3


@pytest.mark.django_db(transaction=True)
def test_two_workers_replaying_at_once_agree_and_never_go_backwards(campaign):
    """Concurrent replays of one battle (two workers got the same message)."""
    import threading

    from django.db import connection

    from battles.services import battle_create

    battle = battle_create(campaign=campaign, name="twins")
    append(battle, [START, *turns(6)])
    results, errors = [], []

    def work():
        try:
            results.append(battle_replay(battle_id=battle.id))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and len(results) == 4
    assert {r.seq for r in results} == {13}
    state = projection(battle).state
    battle_replay(battle_id=battle.id, rebuild=True)
    assert projection(battle).seq == 13 and projection(battle).state == state


@pytest.mark.django_db
def test_admin_replay_action_rebuilds_the_projection(battle, monkeypatch):
    from django.contrib.auth.models import User
    from django.test import Client

    append(battle, [START, *turns(1)])
    replay_battle.run(battle.id)
    BattleProjection.objects.filter(battle=battle).update(state={"status": "garbage"})
    ran = []
    monkeypatch.setattr(replay_battle, "delay", lambda battle_id, rebuild=False: ran.append(
        replay_battle.run(battle_id, rebuild=rebuild)))
    admin = User.objects.create_superuser("root", "r@example.com", "pw")
    c = Client()
    c.force_login(admin)
    r = c.post("/admin/battles/battle/", {"action": "replay", "_selected_action": [battle.id]}, follow=True)
    assert r.status_code == 200 and ran and ran[0]["rebuilt"]
    assert projection(battle).state["status"] == "running"
    page = c.get(f"/admin/battles/battle/{battle.id}/change/")
    # The log reads as its sentences, each under its event's title, never the type code.
    assert page.status_code == 200 and "Бой начат" in page.content.decode()
    assert "battle_started" not in page.content.decode()


@pytest.mark.django_db
def test_the_projections_state_is_compressed_with_lz4_where_the_server_has_it():
    """Every replay rewrites the state (migration 0014): lz4, not pglz, on a PostgreSQL built with it."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL column setting")
    with connection.cursor() as cur:
        cur.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
        has_lz4 = cur.fetchone()[0]
        cur.execute("SELECT attcompression FROM pg_attribute WHERE attrelid = 'battles_battleprojection'::regclass "
                    "AND attname = 'state'")
        assert cur.fetchone()[0] == ("l" if has_lz4 else "")


@pytest.mark.django_db
class TestWhenAReplayRebuilds:
    """A projection folded by another engine version, or under another ruleset, is rebuilt from the log, not
    folded forward; the battle's end is announced (``BATTLE_ENDED_HOOKS``: award proposals) once, by the
    replay that writes it."""

    def test_a_projection_of_an_older_engine_is_rebuilt(self, battle):
        append(battle, [START, *turns(1)])
        replay_battle.run(battle.id)
        state = projection(battle).state
        BattleProjection.objects.filter(battle=battle).update(engine_version=0)
        result = battle_replay(battle_id=battle.id)
        assert result.rebuilt and result.applied == 3
        assert projection(battle).engine_version == engine.engine_version("v11.2") and projection(battle).state == state

    def test_a_projection_folded_under_another_ruleset_is_rebuilt(self, battle):
        append(battle, [START, *turns(1)])
        replay_battle.run(battle.id)
        state = projection(battle).state
        BattleProjection.objects.filter(battle=battle).update(state={**state, "ruleset": "fow"})
        result = battle_replay(battle_id=battle.id)
        assert result.rebuilt and projection(battle).state == state

    def test_the_end_is_announced_once_by_the_replay_that_writes_it(self, battle, monkeypatch,
                                                                    django_capture_on_commit_callbacks):
        announced = []
        monkeypatch.setattr(projections, "BATTLE_ENDED_HOOKS", [announced.append])
        append(battle, [START, *turns(1), NewEvent("battle_ended", {"winner": "attacker"})])
        with django_capture_on_commit_callbacks(execute=True):
            first = battle_replay(battle_id=battle.id)
        with django_capture_on_commit_callbacks(execute=True):
            again = battle_replay(battle_id=battle.id)
        assert first.written and not again.written and announced == [battle.id]
