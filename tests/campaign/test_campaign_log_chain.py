"""A campaign's log anyone can verify (issue 27 §4, docs/verify.md "Verifying a
log"): every campaign event carries the hash chain the pure function
(``campaign.chain``) gives, set by the one append service; ``verify_log`` and
``GET /api/campaigns/{id}/log/verify/`` recompute it, and a row a database
superuser rewrites past the triggers is named by its id. A character's
enlistment, which has no campaign, is chained in the character's own log."""
import importlib

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.db.migrations.loader import MigrationLoader
from rest_framework.test import APIClient

from campaign import chain
from campaign.models import CampaignEvent
from campaign.selectors import campaign_log_verify
from tests.battles.test_log_chain import _exit_code, _rewrite


def _pure(**log):
    """The chains the pure function gives over the stored rows of a log, in id order."""
    previous, out = chain.genesis(**log), []
    for e in CampaignEvent.objects.filter(**log).order_by("id"):
        previous = chain.link(previous, **chain.content_of(e))
        out.append(previous)
    return out


def _stored(**log):
    return list(CampaignEvent.objects.filter(**log).order_by("id").values_list("chain", flat=True))


def test_the_chain_is_sha256_of_the_previous_chain_and_the_canonical_form():
    import hashlib

    content = {"campaign_id": 3, "character_id": 9, "battle_id": None, "source_event_id": None, "type": "promotion",
               "data": {"to": "sergeant", "from": "corporal"}, "battle_number": 2, "key": None, "recorded_by_id": 1}
    text = (b'{"battle":null,"battle_number":2,"campaign":3,"character":9,"data":{"from":"corporal","to":"sergeant"},'
            b'"key":null,"recorded_by":1,"source_event":null,"type":"promotion"}')
    assert chain.canonical(**content) == text
    assert chain.genesis(campaign_id=3) == hashlib.sha256(b"shtab:campaign:3").hexdigest()
    assert chain.genesis(campaign_id=None, character_id=9) == hashlib.sha256(b"shtab:character:9").hexdigest()
    assert chain.link(chain.genesis(campaign_id=3), **content) == hashlib.sha256(
        bytes.fromhex(chain.genesis(campaign_id=3)) + text).hexdigest()


@pytest.mark.django_db(transaction=True)
def test_every_campaign_event_is_chained_by_the_append_service_and_verifies(running, capsys):
    log = {"campaign_id": running.id}
    stored = _stored(**log)
    assert len(stored) >= 5 and None not in stored and stored == _pure(**log)
    _user, character = running.cast["petrov"]
    own = {"campaign_id": None, "character_id": character.id}
    assert _stored(**own) and _stored(**own) == _pure(**own)  # his enlistment, in his own log
    verdict = campaign_log_verify(campaign_id=running.id)
    assert (verdict.ok, verdict.checked, verdict.first_broken_id, verdict.head_chain) == (True, len(stored), None,
                                                                                           stored[-1])
    answer = APIClient().get(f"/api/campaigns/{running.id}/log/verify/").json()
    assert answer == {"campaign": running.id, "head_chain": stored[-1], "ok": True, "checked": len(stored),
                      "first_broken_id": None}
    assert APIClient().get("/api/campaigns/999999/log/verify/").status_code == 404
    assert _exit_code() == 0
    out = capsys.readouterr().out
    assert "all 1 campaign logs verified" in out and "all 4 character logs verified" in out


@pytest.mark.django_db(transaction=True)
def test_an_empty_campaign_log_verifies_at_its_genesis(campaign):
    verdict = campaign_log_verify(campaign_id=campaign.id)
    assert verdict.ok and verdict.checked == 0 and verdict.head_chain == chain.genesis(campaign_id=campaign.id)


@pytest.mark.django_db(transaction=True)
def test_a_row_rewritten_past_the_triggers_is_named_by_its_id(running, campaign, capsys):
    ids = list(CampaignEvent.objects.filter(campaign=running).order_by("id").values_list("id", flat=True))
    target = ids[2]
    _rewrite("UPDATE campaign_campaignevent SET data = %s WHERE id = %s", ['{"side": "defender"}', target])
    verdict = campaign_log_verify(campaign_id=running.id)
    assert (verdict.ok, verdict.first_broken_id, verdict.checked) == (False, target, 2)
    answer = APIClient().get(f"/api/campaigns/{running.id}/log/verify/").json()
    assert answer["ok"] is False and answer["first_broken_id"] == target
    assert _exit_code() == 1
    assert f"campaign {running.id}: the log is broken at event id {target}" in capsys.readouterr().err
    assert _exit_code("--campaign", str(running.id)) == 1
    # the rewriter also rewrites the row's chain: the next event's no longer follows
    forged = chain.link(chain.genesis(campaign_id=running.id) if target == ids[0] else _stored(
        campaign_id=running.id)[1], **chain.content_of(CampaignEvent.objects.get(pk=target)))
    _rewrite("UPDATE campaign_campaignevent SET chain = %s WHERE id = %s", [forged, target])
    assert campaign_log_verify(campaign_id=running.id).first_broken_id == ids[3]


@pytest.mark.django_db(transaction=True)
def test_a_deleted_row_breaks_the_chain_at_the_next_event(running):
    ids = list(CampaignEvent.objects.filter(campaign=running).order_by("id").values_list("id", flat=True))
    _rewrite("DELETE FROM campaign_campaignevent WHERE id = %s", [ids[1]])
    assert campaign_log_verify(campaign_id=running.id).first_broken_id == ids[2]


@pytest.mark.django_db(transaction=True)
def test_an_append_after_a_row_written_around_the_service_is_refused(running, game_master):
    from campaign import services

    with connection.cursor() as cur:  # an insert the triggers allow, without the chain
        cur.execute("INSERT INTO campaign_campaignevent (campaign_id, type, data, battle_number, recorded_at) "
                    "VALUES (%s, 'objective_changed', '{}', 0, CURRENT_TIMESTAMP)", [running.id])
    assert not campaign_log_verify(campaign_id=running.id).ok
    with pytest.raises(RuntimeError, match="has no chain"):
        services.campaign_finish(campaign=running, by=game_master)


@pytest.mark.django_db(transaction=True)
def test_the_migration_backfills_the_chain_appending_gives_and_the_triggers_stay(running):
    logs = [{"campaign_id": running.id}] + [{"campaign_id": None, "character_id": c.id}
                                            for _u, c in running.cast.values()]
    appended = [_stored(**log) for log in logs]
    _rewrite("UPDATE campaign_campaignevent SET chain = NULL", [])
    assert not campaign_log_verify(campaign_id=running.id).ok
    migration = importlib.import_module("campaign.migrations.0010_campaign_event_chain")
    state = MigrationLoader(connection).project_state(("campaign", "0010_campaign_event_chain"))
    with connection.schema_editor() as editor:
        migration.backfill(state.apps, editor)
    assert [_stored(**log) for log in logs] == appended
    assert campaign_log_verify(campaign_id=running.id).ok
    with pytest.raises(DatabaseError, match="append-only"):  # the triggers are there again
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute("UPDATE campaign_campaignevent SET type = 'forged'")


@pytest.mark.django_db(transaction=True)
def test_the_demo_verifies_campaigns_too(capsys):
    call_command("loaddemo")
    call_command("verify_log")
    assert "campaign logs verified" in capsys.readouterr().out
