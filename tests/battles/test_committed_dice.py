"""Service dice committed before they are rolled (issue 27 §4, docs/verify.md
"Committed dice"): each battle publishes the SHA-256 of its secret from its
creation; every die the service rolls is HMAC-SHA256(secret, its place in the
log) reduced to a face without modulo bias; the secret is served to nobody
until the battle has ended, then to anyone; the verifier re-derives every die
and names the first seq where a die or the secret was changed."""
from __future__ import annotations

import hashlib
import hmac
import importlib
import json
import re
from collections import Counter
from typing import get_args

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from rest_framework.test import APIClient

from battles.engine.dice import DICE
from battles.engine.events import _registry
from battles.engine.fow.synthetic import synthetic_fow_battle
from battles.engine.schema import _is_optional, hints, is_payload
from battles.engine.synthetic import synthetic_battle
from battles.log import chain, dice_commit
from battles.log.cache import STATE_CACHE
from battles.models import Battle, BattleEvent
from battles.selectors import battle_log_verify
from battles.services import NewEvent, battle_create, battle_event_append
from campaign.models import Campaign
from config.errors import ApplicationError, InvalidInput
from tests.battles import test_log_chain
from tests.battles.test_log_chain import _exit_code, _rewrite, _verify_api

path = test_log_chain.path  # the fixture: both append paths

LOGS = {"v11.2": synthetic_battle(60, seed=5), "fow": synthetic_fow_battle(60, seed=5)}
END = NewEvent("battle_ended", {"winner": "draw", "reason": "test"})


def asks(data):
    """The data with every die the service rolled asked of it again (``{"source": "rolled"}``)."""
    if isinstance(data, dict):
        if data.get("source") == "rolled":
            return {"source": "rolled"}
        return {k: asks(v) for k, v in data.items()}
    if isinstance(data, list):
        return [asks(v) for v in data]
    return data


def played(campaign, name="committed", ruleset="v11.2", upto=None):
    """A battle whose synthetic log (without its end; or its first ``upto``
    events) was appended with every rolled die asked of the service; events
    its other dice made impossible are refused and left out."""
    battle = battle_create(campaign=campaign, name=name)
    for e in LOGS[ruleset][:upto]:
        if e.type == "battle_ended":
            continue
        try:
            battle_event_append(battle_id=battle.id, events=[NewEvent(e.type, asks(e.data), schema_version=e.version)],
                                expected_seq=None, as_game_master=True)
        except ApplicationError:
            pass
    battle.refresh_from_db()
    return battle


def first_die(ruleset="v11.2"):
    """The index of the synthetic log's first event with a die the service rolled, and that event asked again:
    the log before it has no die, so whatever the secret, the event is valid after it."""
    i = next(i for i, e in enumerate(LOGS[ruleset]) if asks(e.data) != e.data)
    e = LOGS[ruleset][i]
    return i, NewEvent(e.type, asks(e.data), schema_version=e.version)


def stored_dice(battle_id):
    """(seq, path, value, rng) of every die the service rolled, in seq order."""
    out = []
    for e in BattleEvent.objects.filter(battle_id=battle_id).order_by("seq"):
        out += [(e.seq, path, value, dice_commit.RNG) for path, value in dice_commit.derived_dice(e.data)]
        if dice_commit.uncommitted_dice(e.data):
            out.append((e.seq, None, None, dice_commit.UNCOMMITTED))
    return out


def end(battle):
    battle_event_append(battle_id=battle.id, events=[END], expected_seq=None, as_game_master=True)
    battle.refresh_from_db()


def _rechain_from(battle_id, seq):
    """The superuser also recomputes the chain from ``seq`` on (anyone can: the chain has no secret)."""
    rows = list(BattleEvent.objects.filter(battle_id=battle_id).order_by("seq"))
    previous = chain.genesis(battle_id)
    for e in rows:
        previous = chain.link(previous, battle_id=battle_id, seq=e.seq, type=e.type, schema_version=e.schema_version,
                              data=e.data, key=e.key)
        if e.seq >= seq:
            _rewrite("UPDATE battles_battleevent SET chain = %s WHERE battle_id = %s AND seq = %s",
                     [previous, battle_id, e.seq])


# --- the derivation, pure ------------------------------------------------------------------------------
def test_a_die_is_hmac_sha256_of_its_place_read_as_a_big_integer_modulo_its_sides():
    secret = "ab" * 32
    msg = b'["die",7,12,["struck",0,"die"],0]'
    x = int.from_bytes(hmac.new(bytes.fromhex(secret), msg, hashlib.sha256).digest(), "big")
    assert dice_commit.message(7, 12, ("struck", 0, "die"), 0) == msg
    assert dice_commit.derive(bytes.fromhex(secret), battle_id=7, seq=12, path=("struck", 0, "die"), sides=20) \
        == x % 20 + 1  # (this block is far below the rejection bound)
    assert dice_commit.commitment(secret) == hashlib.sha256(bytes.fromhex(secret)).hexdigest()
    assert dice_commit.message(1, 2, ["раз", 3], 4) == '["die",1,2,["раз",3],4]'.encode()  # UTF-8, no escapes


@pytest.mark.parametrize("sides", [20, 6])
def test_a_block_past_the_last_whole_multiple_of_the_sides_is_rejected_not_folded(sides):
    span = 1 << 256
    bound = span - span % sides  # the blocks 0..bound-1 give every face bound/sides times
    assert dice_commit.reduce((0).to_bytes(32, "big"), sides) == 1
    assert dice_commit.reduce((bound - 1).to_bytes(32, "big"), sides) == sides
    assert dice_commit.reduce(bound.to_bytes(32, "big"), sides) is None  # modulo would give face 1 here
    assert dice_commit.reduce(b"\xff" * 32, sides) is None


def test_a_rejected_block_moves_on_to_the_next_counter(monkeypatch):
    """A crafted first block past the bound: the die is the next block's face."""
    real, asked = hmac.digest, []

    def digest(key, msg, name):
        asked.append(json.loads(msg)[-1])
        return b"\xff" * 32 if len(asked) == 1 else real(key, msg, name)

    monkeypatch.setattr(dice_commit.hmac, "digest", digest)
    face = dice_commit.derive(b"k" * 32, battle_id=1, seq=1, path=("die",), sides=20)
    assert asked == [0, 1]
    block = real(b"k" * 32, dice_commit.message(1, 1, ("die",), 1), "sha256")
    assert face == int.from_bytes(block, "big") % 20 + 1


@pytest.mark.parametrize("sides", [20, 6])
def test_every_face_comes_up_about_as_often(sides):
    key = bytes(range(32))
    n = 600 * sides
    faces = Counter(dice_commit.derive(key, battle_id=3, seq=s, path=("die",), sides=sides) for s in range(n))
    assert sorted(faces) == list(range(1, sides + 1))
    chi2 = sum((c - 600) ** 2 / 600 for c in faces.values())
    assert chi2 < 60  # df 19 (or 5): p < 1e-5 of a fair die failing this


def _kinds(tp, seen=()):
    """The sides of every die kind a payload type holds (as ``dice._type_has_dice`` walks it)."""
    _opt, tp = _is_optional(tp)
    if tp in DICE:
        return {DICE[tp]}
    if tp in seen:
        return set()
    found = set()
    for arg in get_args(tp):
        found |= _kinds(arg, (*seen, tp))
    if is_payload(tp):
        for hint in hints(tp).values():
            found |= _kinds(hint, (*seen, tp))
    return found


@pytest.mark.parametrize("code", sorted(LOGS))
def test_each_ruleset_rolls_one_kind_of_die_the_verifier_knows_the_sides_of(code):
    kinds = set().union(*(_kinds(entry.payload) for entry in _registry(code).values()))
    assert kinds == {dice_commit.SIDES[code]}, "a ruleset with two kinds of die: dice_commit.SIDES cannot say"


# --- the store derives, the verifier re-derives ---------------------------------------------------------
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ruleset", sorted(LOGS))
def test_every_service_die_is_derived_from_the_secret_and_its_place(path, ruleset):
    campaign = Campaign.objects.create(name="c", ruleset=ruleset)
    battle = played(campaign, ruleset=ruleset)
    assert battle.dice_commitment == hashlib.sha256(bytes.fromhex(battle.dice_secret)).hexdigest()
    dice = stored_dice(battle.id)
    assert len(dice) > 20 and {rng for *_x, rng in dice} == {dice_commit.RNG}
    key = bytes.fromhex(battle.dice_secret)
    for seq, at, value, _rng in dice:
        assert value == dice_commit.derive(key, battle_id=battle.id, seq=seq, path=at,
                                           sides=dice_commit.SIDES[ruleset]), (seq, at)
    assert len({v for _s, _p, v, _r in dice}) > 3  # not one face for every place
    verdict = battle_log_verify(battle_id=battle.id)
    assert verdict.ok and verdict.dice.checked == len(dice) and verdict.dice.first_bad_seq is None


@pytest.mark.django_db(transaction=True)
def test_the_same_log_under_another_secret_rolls_other_dice(campaign):
    one, two = played(campaign, "one"), played(campaign, "two")
    assert one.dice_secret != two.dice_secret and one.dice_commitment != two.dice_commitment
    faces = [[v for _s, _p, v, _r in stored_dice(b.id)] for b in (one, two)]
    assert faces[0] != faces[1]


@pytest.mark.django_db(transaction=True)
def test_a_retry_of_a_batch_with_a_derived_die_is_the_stored_event(campaign, path):
    i, ask = first_die()
    battle = played(campaign, upto=i)
    keyed = NewEvent(ask.type, ask.data, key="once", schema_version=ask.schema_version)
    first = battle_event_append(battle_id=battle.id, events=[keyed], expected_seq=battle.head_seq,
                                as_game_master=True)
    assert first.created and stored_dice_of(first.events[0])
    again = battle_event_append(battle_id=battle.id, events=[keyed], expected_seq=None, as_game_master=True)
    assert not again.created and [x.pk for x in again.events] == [x.pk for x in first.events]


def stored_dice_of(event):
    return list(dice_commit.derived_dice(event.data))


@pytest.mark.django_db
def test_a_die_sent_as_derived_is_refused_naming_its_rng(defender_client, battle):
    fire = {"type": "fire", "data": {"shooter": "a1", "weapon": "rifle", "target": "fighters", "distance": 5,
                                     "struck": [{"fighter": "d1", "die": {"source": "rolled", "value": 20,
                                                                          "rng": dice_commit.RNG}}]}}
    r = defender_client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": 0, "events": [fire]},
                             format="json")
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    assert error["field"] == "events[0].data.struck[0].die.rng" and error["code"] == "derived_die_sent"
    assert "events[0].data.struck[0].die.rng" in error["message_ru"] and "only the service" in error["message_en"]
    with pytest.raises(InvalidInput):
        battle_event_append(battle_id=battle.id, events=[NewEvent(fire["type"], fire["data"])], expected_seq=0,
                            as_game_master=True)


# --- a rewrite is named ------------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("rechained", [False, True], ids=["row", "row-and-chain"])
def test_a_die_changed_past_the_triggers_is_named_by_its_seq(campaign, capsys, rechained):
    battle = played(campaign)
    end(battle)
    seq, at, value, _rng = stored_dice(battle.id)[len(stored_dice(battle.id)) // 2]
    e = BattleEvent.objects.get(battle=battle, seq=seq)
    data = e.data
    die = data
    for step in at:
        die = die[step]
    die["value"] = value % 20 + 1  # another face
    _rewrite("UPDATE battles_battleevent SET data = %s WHERE battle_id = %s AND seq = %s",
             [json.dumps(data), battle.id, seq])
    if rechained:
        _rechain_from(battle.id, seq)
    verdict = battle_log_verify(battle_id=battle.id)
    assert verdict.first_broken_seq == (None if rechained else seq)
    assert not verdict.ok and verdict.dice.first_bad_seq == seq and verdict.dice.commitment_ok
    answer = _verify_api(battle.id)
    assert answer["ok"] is False and answer["dice"]["first_bad_seq"] == seq and answer["dice"]["ok"] is False
    assert _exit_code("--battle", str(battle.id)) == 1
    assert f"a die the service rolled at seq {seq} is not its derivation" in capsys.readouterr().err


@pytest.mark.django_db(transaction=True)
def test_a_changed_secret_or_commitment_fails_the_check(campaign, capsys):
    battle = played(campaign)
    first, at, value, _rng = stored_dice(battle.id)[0]
    end(battle)
    assert battle_log_verify(battle_id=battle.id).ok
    other = next(s for s in iter(dice_commit.new_secret, None)  # (one in 20 gives the first die's face again)
                 if dice_commit.derive(bytes.fromhex(s), battle_id=battle.id, seq=first, path=at, sides=20) != value)
    Battle.objects.filter(pk=battle.pk).update(dice_secret=other)
    verdict = battle_log_verify(battle_id=battle.id)
    assert not verdict.ok and not verdict.dice.commitment_ok and verdict.dice.first_bad_seq == first
    assert _exit_code("--battle", str(battle.id)) == 1
    assert "the dice secret is not the commitment's" in capsys.readouterr().err
    Battle.objects.filter(pk=battle.pk).update(dice_secret=battle.dice_secret, dice_commitment="0" * 64)
    verdict = battle_log_verify(battle_id=battle.id)
    assert not verdict.ok and not verdict.dice.commitment_ok and verdict.dice.first_bad_seq is None
    assert _verify_api(battle.id)["dice"]["commitment_ok"] is False
    Battle.objects.filter(pk=battle.pk).update(dice_commitment=battle.dice_commitment)
    assert battle_log_verify(battle_id=battle.id).ok


# --- the reveal ------------------------------------------------------------------------------------------------
def _pages(battle, clients):
    """Everything a reader is served of the battle: the API's detail, list and verdict, and the page."""
    out = {}
    for who, client in clients.items():
        api = APIClient()
        if client is not None:
            api.force_authenticate(client)
        out[who] = [api.get(f"/api/battles/{battle.id}/"), api.get(f"/api/battles/?campaign={battle.campaign_id}"),
                    api.get(f"/api/battles/{battle.id}/log/verify/"), api.get(f"/api/battles/{battle.id}/state/")]
    return out


@pytest.mark.django_db(transaction=True)
def test_the_secret_is_served_to_nobody_before_the_end_and_to_anyone_after(campaign, game_master, player, client):
    from tests.conftest import enlist_at

    battle = played(campaign)
    enlist_at(battle, player, "defender")
    secret = battle.dice_secret
    readers = {"anonymous": None, "participant": player, "game master": game_master}
    for who, answers in _pages(battle, readers).items():
        for r in answers:
            assert r.status_code == 200 and secret not in r.content.decode(), (who, r.request["PATH_INFO"])
        assert answers[0].json()["dice_commitment"] == battle.dice_commitment and answers[0].json()["dice_secret"] is None
        assert answers[2].json()["dice"]["secret"] is None and answers[2].json()["dice"]["revealed"] is False
    for user, url in ((player, f"/battles/{battle.id}/"), (game_master, f"/battles/{battle.id}/"),
                      (game_master, f"/admin/battles/battle/{battle.id}/change/")):
        client.force_login(user)
        page = client.get(url)
        assert page.status_code == 200 and secret not in page.content.decode(), url
    end(battle)
    assert battle.dice_revealed_seq == battle.head_seq
    for who, answers in _pages(battle, readers).items():
        assert answers[0].json()["dice_secret"] == secret, who
        assert answers[1].json()[0]["dice_secret"] == secret, who
        dice = answers[2].json()["dice"]
        assert (dice["secret"], dice["revealed"], dice["ok"]) == (secret, True, True), who


@pytest.mark.django_db(transaction=True)
def test_a_finished_campaign_reveals_its_battles_secrets(running, game_master):
    from campaign.services import campaign_finish

    battle = battle_create(campaign=running, name="unplayed")
    assert APIClient().get(f"/api/battles/{battle.id}/").json()["dice_secret"] is None
    campaign_finish(campaign=running, by=game_master)
    assert APIClient().get(f"/api/battles/{battle.id}/").json()["dice_secret"] == battle.dice_secret


@pytest.mark.django_db(transaction=True)
def test_no_die_is_derived_from_a_revealed_secret_even_when_the_end_is_voided(campaign, path):
    i, ask = first_die()
    battle = played(campaign, upto=i)
    end(battle)
    ended = battle.head_seq
    battle_event_append(battle_id=battle.id, events=[NewEvent("correction", {"voids_seq": ended,
                                                                             "reason": "played on"})],
                        expected_seq=ended, as_game_master=True)
    battle_event_append(battle_id=battle.id, events=[ask], expected_seq=None, as_game_master=True)
    battle.refresh_from_db()
    assert battle.dice_revealed_seq == ended  # revealed once, for good
    last = BattleEvent.objects.get(battle=battle, seq=battle.head_seq)
    assert stored_dice_of(last) == [] and dice_commit.uncommitted_dice(last.data) >= 1
    verdict = battle_log_verify(battle_id=battle.id)
    assert verdict.ok and verdict.dice.uncommitted == dice_commit.uncommitted_dice(last.data)


@pytest.mark.django_db(transaction=True)
def test_a_batch_that_ends_the_battle_derives_no_die_after_its_end(campaign, path):
    i, ask = first_die()
    battle = played(campaign, upto=i)
    head = battle.head_seq
    r = battle_event_append(battle_id=battle.id, events=[END, NewEvent("correction", {
        "voids_seq": head + 1, "reason": "played on"}), ask], expected_seq=head, as_game_master=True)
    after = r.events[2]
    assert not stored_dice_of(after) and dice_commit.uncommitted_dice(after.data)
    battle.refresh_from_db()
    assert battle.dice_revealed_seq == head + 1 and battle_log_verify(battle_id=battle.id).ok


@pytest.mark.django_db(transaction=True)
def test_the_secret_never_reaches_an_error_or_the_log_of_an_append(battle, caplog, defender_client):
    r = defender_client.post(f"/api/battles/{battle.id}/events/",
                             {"expected_seq": 0, "events": [{"type": "fire", "data": {"shooter": "x"}}]},
                             format="json")
    assert r.status_code in (400, 403, 422) and battle.dice_secret not in r.content.decode()
    assert battle.dice_secret not in caplog.text


# --- where a battle's secret comes from ------------------------------------------------------------------------
@pytest.mark.django_db
def test_a_battle_added_in_the_admin_is_committed_as_one_battle_create_makes(client, game_master, campaign):
    client.force_login(game_master)
    form = client.get("/admin/battles/battle/add/").content.decode()
    management = dict(re.findall(r'name="([^"]+-(?:TOTAL|INITIAL|MIN_NUM|MAX_NUM)_FORMS)" value="(\d*)"', form))
    r = client.post("/admin/battles/battle/add/", {"campaign": campaign.id, "name": "из админки", "number": 1,
                                                   "created_at_0": "2026-01-01", "created_at_1": "10:00:00",
                                                   **management})
    assert r.status_code == 302, re.findall(r'class="errorlist[^>]*>(.*?)</ul>', r.content.decode())
    battle = Battle.objects.get(name="из админки")
    assert re.fullmatch("[0-9a-f]{64}", battle.dice_secret)
    assert battle.dice_commitment == dice_commit.commitment(battle.dice_secret)


@pytest.mark.django_db(transaction=True)
def test_the_migration_commits_every_stored_battle_and_reveals_the_ended(campaign):
    ended, running = played(campaign, "ended"), battle_create(campaign=campaign, name="running")
    end(ended)
    Battle.objects.update(dice_secret="", dice_commitment="", dice_revealed_seq=None)
    migration = importlib.import_module("battles.migrations.0013_battle_dice_commitment")
    state = MigrationLoader(connection).project_state(("battles", "0013_battle_dice_commitment"))
    with connection.schema_editor() as editor:
        migration.commit(state.apps, editor)
    ended.refresh_from_db()
    running.refresh_from_db()
    assert ended.dice_revealed_seq == ended.head_seq and running.dice_revealed_seq is None
    for b in (ended, running):
        assert b.dice_commitment == dice_commit.commitment(b.dice_secret)
    assert ended.dice_secret != running.dice_secret


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ruleset", sorted(LOGS))
def test_the_script_in_the_docs_re_derives_every_die_from_what_the_api_serves(ruleset):
    """docs/verify.md "Committed dice": the player's script, run as written on the API's answers."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "verify.md").read_text()
    script = re.search(r"## Committed dice.*?```python\n(.*?)```", text, re.S).group(1)
    namespace = {}
    exec(script, namespace)  # noqa: S102 - our own docs
    battle = played(Campaign.objects.create(name="c", ruleset=ruleset), ruleset=ruleset)
    end(battle)
    api = APIClient()
    detail = api.get(f"/api/battles/{battle.id}/").json()
    events = api.get(f"/api/battles/{battle.id}/events/?limit=1000").json()["results"]
    assert namespace["first_bad_seq"](detail, events) is None
    seq, at, value, _rng = stored_dice(battle.id)[3]
    forged = next(e for e in events if e["seq"] == seq)
    die = forged["data"]
    for step in at:
        die = die[step]
    die["value"] = value % dice_commit.SIDES[ruleset] + 1
    assert namespace["first_bad_seq"](detail, events) == seq
    with pytest.raises(AssertionError, match="not the committed secret"):
        namespace["first_bad_seq"]({**detail, "dice_secret": dice_commit.new_secret()}, events)


@pytest.mark.parametrize("secret", ["", "ab" * 16, "ab" * 31, "not hex"])
def test_a_secret_that_is_not_32_bytes_derives_nothing(campaign, secret):
    """A battle without a sound secret (one made before the scheme: blank) has no key: the service draws its
    dice from ``secrets`` and marks them so, never derives them from a short or empty key anyone could
    use."""
    assert dice_commit.key(secret) is None and len(dice_commit.key("ab" * 32)) == 32
    i, ask = first_die()
    battle = played(campaign, upto=i)
    Battle.objects.filter(pk=battle.pk).update(dice_secret=secret)
    STATE_CACHE.clear()  # (the store keeps the key with the battle's state)
    stored = battle_event_append(battle_id=battle.id, events=[ask], expected_seq=battle.head_seq,
                                 as_game_master=True).events[0]
    assert not stored_dice_of(stored) and dice_commit.uncommitted_dice(stored.data) >= 1
