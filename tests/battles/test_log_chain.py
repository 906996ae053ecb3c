"""A battle's log anyone can verify (issue 27 §4, docs/verify.md "Verifying a
log"): every stored event carries the hash chain the pure function
(``battles.log.chain``) gives, on every append path; ``verify_log`` and
``GET /api/battles/{id}/log/verify/`` recompute it, and a row a database
superuser rewrites or deletes past the triggers is named by its seq. The head
chain never reaches a reader from whom an event's content is hidden."""
import importlib

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction
from django.db.migrations.loader import MigrationLoader
from rest_framework.test import APIClient

from battles.db import append_only_suspended
from battles.log import chain, store
from battles.log.cache import STATE_CACHE
from battles.models import Battle, BattleEvent
from battles.selectors import battle_log_verify
from battles.services import NewEvent, battle_create, battle_event_append

from .test_hidden_information_answers import mined  # noqa: F401 (a fixture)

START = NewEvent("battle_started", {"attacker": "A", "defender": "D"})


def turn(seq):
    k = seq - 2
    return NewEvent("turn_ended", {"side": ("defender", "attacker")[k % 2], "turn": k // 2 + 1},
                    key=f"turn-{seq}")


def _pure(battle_id):
    """The chains the pure function gives over the stored rows, seq by seq."""
    previous, out = chain.genesis(battle_id), []
    for e in BattleEvent.objects.filter(battle_id=battle_id).order_by("seq"):
        previous = chain.link(previous, battle_id=battle_id, seq=e.seq, type=e.type, schema_version=e.schema_version,
                              data=e.data, key=e.key)
        out.append(previous)
    return out


def _stored(battle_id):
    return list(BattleEvent.objects.filter(battle_id=battle_id).order_by("seq").values_list("chain", flat=True))


def _log(campaign, n=6, name="chained"):
    battle = battle_create(campaign=campaign, name=name)
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[START, turn(2)], as_game_master=True)
    for seq in range(3, n + 1):
        battle_event_append(battle_id=battle.id, expected_seq=seq - 1, events=[turn(seq)], as_game_master=True)
    return battle


def _rewrite(sql, params):
    """A database superuser past the triggers."""
    with append_only_suspended(connection), connection.cursor() as cur:
        cur.execute(sql, params)


def _verify_api(battle_id, client=None):
    r = (client or APIClient()).get(f"/api/battles/{battle_id}/log/verify/")
    assert r.status_code == 200, r.content
    return r.json()


def _exit_code(*args):
    """``manage.py verify_log`` as a shell runs it: its exit status."""
    from django.core.management import ManagementUtility

    try:
        ManagementUtility(["manage.py", "verify_log", *args]).execute()
    except SystemExit as exc:
        return exc.code
    return 0


@pytest.fixture(params=[True, False], ids=["optimistic", "locked"])
def path(request, monkeypatch):
    monkeypatch.setattr(store, "OPTIMISTIC", request.param)
    return request.param


def test_the_chain_is_sha256_of_the_previous_chain_and_the_canonical_form():
    import hashlib

    text = chain.canonical(battle_id=7, seq=1, type="battle_started", schema_version=1,
                           data={"defender": "Д", "attacker": "A"}, key=None)
    assert text == ('{"battle":7,"data":{"attacker":"A","defender":"Д"},"key":null,"schema_version":1,'
                    '"seq":1,"type":"battle_started"}').encode()
    assert chain.genesis(7) == hashlib.sha256(b"shtab:battle:7").hexdigest()
    assert chain.link(chain.genesis(7), battle_id=7, seq=1, type="battle_started", schema_version=1,
                      data={"attacker": "A", "defender": "Д"}, key=None) == hashlib.sha256(
        bytes.fromhex(chain.genesis(7)) + text).hexdigest()


@pytest.mark.django_db(transaction=True)
def test_every_append_path_stores_the_pure_functions_chain(campaign, path):
    battle = _log(campaign, n=8)
    STATE_CACHE.clear()  # the locked path reads the head's chain from the log
    r = battle_event_append(battle_id=battle.id, expected_seq=8, events=[turn(9), turn(10)], as_game_master=True)
    r2 = battle_event_append(battle_id=battle.id, expected_seq=10, events=[turn(11)], as_game_master=True)
    stored = _stored(battle.id)
    assert len(stored) == 11 and None not in stored
    assert stored == _pure(battle.id)
    assert [e.chain for e in r.events + r2.events] == stored[8:]  # the answer's rows carry it too


@pytest.mark.django_db(transaction=True)
def test_a_fresh_log_verifies_by_selector_command_and_api(campaign, capsys):
    empty = battle_create(campaign=campaign, name="empty")
    battle = _log(campaign)
    verdict = battle_log_verify(battle_id=battle.id)
    assert verdict.ok and verdict.checked == 6 and verdict.first_broken_seq is None
    assert verdict.head_chain == _stored(battle.id)[-1]
    answer = _verify_api(battle.id)
    assert answer == {"battle": battle.id, "head_seq": 6, "head_chain": verdict.head_chain, "ok": True,
                      "first_broken_seq": None, "dice": answer["dice"]}
    assert answer["dice"] == {"commitment": battle.dice_commitment, "secret": None, "revealed": False, "ok": True,
                              "commitment_ok": True, "checked": 0, "first_bad_seq": None, "uncommitted": 0,
                              "command_checked": 0, "first_bad_command_roll": None, "command_dice": []}
    assert _verify_api(empty.id)["head_chain"] == chain.genesis(empty.id)
    assert _exit_code() == 0
    assert "all 2 battles verified" in capsys.readouterr().out
    assert APIClient().get("/api/battles/999999/log/verify/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_demo_verifies(capsys):
    call_command("loaddemo")
    assert BattleEvent.objects.exists()
    call_command("verify_log")
    assert f"all {Battle.objects.count()} battles verified" in capsys.readouterr().out


@pytest.mark.django_db(transaction=True)
def test_a_row_rewritten_past_the_triggers_is_named_by_its_seq(campaign, capsys):
    battle = _log(campaign)
    other = _log(campaign, name="untouched")
    _rewrite("UPDATE battles_battleevent SET data = %s WHERE battle_id = %s AND seq = 4",
             ['{"side": "attacker", "turn": 9}', battle.id])
    verdict = battle_log_verify(battle_id=battle.id)
    assert (verdict.ok, verdict.first_broken_seq, verdict.checked) == (False, 4, 3)
    answer = _verify_api(battle.id)
    assert answer["ok"] is False and answer["first_broken_seq"] == 4
    assert _exit_code() == 1
    err = capsys.readouterr().err
    assert f"battle {battle.id}: the log is broken at seq 4" in err and f"battle {other.id}:" not in err
    assert _exit_code("--battle", str(other.id)) == 0
    with pytest.raises(CommandError, match=f"battle {battle.id}: the log is broken at seq 4"):
        call_command("verify_log", battle=battle.id)


@pytest.mark.django_db(transaction=True)
def test_a_rewrite_that_also_rewrites_the_rows_chain_breaks_at_the_next(campaign):
    battle = _log(campaign)
    _rewrite("UPDATE battles_battleevent SET data = %s, chain = %s WHERE battle_id = %s AND seq = 4",
             ['{"side": "attacker", "turn": 9}', "0" * 64, battle.id])
    assert battle_log_verify(battle_id=battle.id).first_broken_seq == 4


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("seq", [3, 6], ids=["middle", "head"])
def test_a_deleted_row_is_named_by_its_seq(campaign, seq):
    battle = _log(campaign)
    _rewrite("DELETE FROM battles_battleevent WHERE battle_id = %s AND seq = %s", [battle.id, seq])
    verdict = battle_log_verify(battle_id=battle.id)
    assert (verdict.ok, verdict.first_broken_seq) == (False, seq)
    assert _verify_api(battle.id)["first_broken_seq"] == seq


@pytest.mark.django_db(transaction=True)
def test_the_migration_backfills_the_chain_appending_gives_and_the_triggers_stay(campaign):
    battles = [_log(campaign, n=5, name="one"), _log(campaign, n=7, name="two")]
    appended = {b.id: _stored(b.id) for b in battles}
    _rewrite("UPDATE battles_battleevent SET chain = NULL", [])
    assert not battle_log_verify(battle_id=battles[0].id).ok
    migration = importlib.import_module("battles.migrations.0012_battle_event_chain")
    state = MigrationLoader(connection).project_state(("battles", "0012_battle_event_chain"))
    with connection.schema_editor() as editor:
        migration.backfill(state.apps, editor)
    assert {b.id: _stored(b.id) for b in battles} == appended
    assert all(battle_log_verify(battle_id=b.id).ok for b in battles)
    with pytest.raises(DatabaseError, match="append-only"):  # the triggers are there again
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute("UPDATE battles_battleevent SET type = 'forged'")


@pytest.mark.django_db(transaction=True)
def test_an_append_after_a_row_written_around_the_store_is_refused(campaign):
    battle = _log(campaign, n=3)
    STATE_CACHE.clear()
    with connection.cursor() as cur:  # an insert the triggers allow, without the chain
        cur.execute("INSERT INTO battles_battleevent (battle_id, seq, position, type, data, schema_version, "
                    "recorded_at) VALUES (%s, 4, 999999, 'turn_ended', %s, 1, CURRENT_TIMESTAMP)",
                    [battle.id, '{"side": "defender", "turn": 2}'])
    Battle.objects.filter(pk=battle.pk).update(head_seq=4)
    assert battle_log_verify(battle_id=battle.id).first_broken_seq == 4
    with pytest.raises(RuntimeError, match="seq 4 has no chain"):
        battle_event_append(battle_id=battle.id, expected_seq=4, events=[turn(5)], as_game_master=True)
    assert BattleEvent.objects.filter(battle=battle).count() == 4


@pytest.mark.django_db(transaction=True)
def test_v_mine_14_the_head_chain_reaches_no_reader_from_whom_an_event_is_hidden(mined, replay_worker):  # noqa: F811
    head = _stored(mined.id)[-1]
    # who may see what is read from the projection (it fails closed while behind): let the worker catch up
    assert replay_worker.wait(mined.id, mined.__class__.objects.get(pk=mined.id).head_seq) is not None
    for role, shown in (("game_master", True), ("defender", True), ("attacker", False), ("bystander", False),
                        ("anonymous", False)):
        client = APIClient()
        if role != "anonymous":
            client.force_authenticate(mined.users[role])
        answer = _verify_api(mined.id, client)
        assert answer["ok"] is True, role
        assert answer["head_chain"] == (head if shown else None), role


@pytest.mark.django_db(transaction=True)
def test_the_verifier_reads_the_head_and_then_one_query_a_chunk(campaign, django_assert_num_queries):
    """... and one for the command rolls' dice (V-RANK-9, V-RANK-10: campaign events of the battle)."""
    battle = _log(campaign, n=7)
    with django_assert_num_queries(3):
        assert battle_log_verify(battle_id=battle.id).ok
    with django_assert_num_queries(5):  # 7 rows, 3 a chunk: the head, then 3 + 3 + 1, then the command rolls
        assert battle_log_verify(battle_id=battle.id, chunk=3).checked == 7
