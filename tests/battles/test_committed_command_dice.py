"""The pre-battle command roll's dice are committed too (issue 27 §4; V-RANK-9,
V-RANK-10; docs/verify.md "Committed dice"): a die the service rolls for it is
derived from the battle's secret at seq 0, path ["command_roll", side, round,
character]; the verifier (``battle_log_verify``, the verify API, ``verify_log``)
re-derives each and names the roll holding a changed one; after the reveal the
docs' script re-derives them from the API's answers; an entered die never
reads as the service's."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from battles.log import dice_commit
from battles.selectors import battle_log_verify
from battles.services import NewEvent, battle_create, battle_event_append
from battles.table import command
from campaign.models import CampaignEvent
from tests.battles.test_committed_dice import end
from tests.battles.test_log_chain import _exit_code, _rewrite, _verify_api

ROLLED = {"source": "rolled"}


def _ids(campaign, *names):
    return [campaign.cast[n][1].pk for n in names]


def _roll_until_captain(battle, side, players, by):
    """V-RANK-10, G-13: the side rolls (every die asked of the service) until the tie breaks."""
    contenders = players
    for _ in range(20):
        st = command.command_roll(battle=battle, side=side, rolls={c: ROLLED for c in contenders}, by=by)
        if st.captain is not None:
            return st
        contenders = st.contenders
    raise AssertionError("twenty tied rounds")


def _start_and_end(battle):
    battle_event_append(battle_id=battle.id, events=[NewEvent("battle_started", {"attacker": "A", "defender": "D"})],
                        expected_seq=0, as_game_master=True)
    end(battle)


def _rolls(battle):
    return list(CampaignEvent.objects.filter(battle=battle, type="command_roll").order_by("id"))


@pytest.fixture
def rolled(running, game_master):
    """A battle whose two sides rolled for command, every die rolled by the service."""
    battle = battle_create(campaign=running, name="Бой за высоту")
    _roll_until_captain(battle, "attacker", _ids(running, "petrov", "sidorov"), game_master)
    _roll_until_captain(battle, "defender", _ids(running, "hans", "fritz"), game_master)
    return battle


@pytest.mark.django_db(transaction=True)
def test_v_rank_9_every_command_die_is_derived_and_the_verifier_re_derives_it(rolled, capsys):
    key = bytes.fromhex(rolled.dice_secret)
    n = 0
    for event in _rolls(rolled):
        for cid, die in event.data["rolls"].items():
            n += 1
            assert die == {"value": dice_commit.derive(
                key, battle_id=rolled.id, seq=0, path=["command_roll", event.data["side"], event.data["round"], cid],
                sides=20), "source": "rolled", "rng": "hmac-sha256"}
    assert n >= 4
    verdict = battle_log_verify(battle_id=rolled.id)
    assert verdict.ok and verdict.dice.command_checked == n and verdict.dice.first_bad_command is None
    answer = _verify_api(rolled.id)["dice"]
    assert answer["ok"] is True and answer["command_checked"] == n and answer["first_bad_command_roll"] is None
    assert _exit_code("--battle", str(rolled.id)) == 0
    assert f"{n} of the command rolls" in capsys.readouterr().out


@pytest.mark.django_db(transaction=True)
def test_v_rank_10_a_changed_command_die_fails_the_check(rolled, capsys):
    event = _rolls(rolled)[-1]  # the defender's last round
    data = event.data
    cid = sorted(data["rolls"])[0]
    data["rolls"][cid]["value"] = data["rolls"][cid]["value"] % 20 + 1  # another face
    _rewrite("UPDATE campaign_campaignevent SET data = %s WHERE id = %s", [json.dumps(data), event.pk])
    verdict = battle_log_verify(battle_id=rolled.id)
    bad = {"side": "defender", "round": data["round"]}
    assert not verdict.ok and verdict.dice.first_bad_command == bad
    assert verdict.dice.first_bad_seq is None and verdict.dice.commitment_ok  # the battle's own dice hold
    answer = _verify_api(rolled.id)
    assert answer["ok"] is False and answer["dice"]["ok"] is False and answer["dice"]["first_bad_command_roll"] == bad
    assert _exit_code("--battle", str(rolled.id)) == 1
    assert f"command roll of the defender, round {data['round']}, is not its derivation" in capsys.readouterr().err


@pytest.mark.django_db(transaction=True)
def test_a_command_die_sent_as_the_services_is_stored_as_entered(running, game_master):
    """A die entered at the table keeps only its face: an ``rng`` sent with it does not make it the service's."""
    battle = battle_create(campaign=running, name="b")
    a, b = _ids(running, "petrov", "sidorov")
    command.command_roll(battle=battle, side="attacker", by=game_master,
                         rolls={a: {"value": 20, "source": "entered", "rng": "hmac-sha256"},
                                b: {"value": 3, "source": "entered", "rng": "secrets"}})
    rolls = _rolls(battle)[0].data["rolls"]
    assert rolls == {str(a): {"value": 20, "source": "entered"}, str(b): {"value": 3, "source": "entered"}}
    verdict = battle_log_verify(battle_id=battle.id)
    assert verdict.ok and verdict.dice.command_checked == 0 and verdict.dice.uncommitted == 0


@pytest.mark.django_db
@pytest.mark.parametrize("die", [5, "rolled", [1]])
def test_a_command_die_that_is_no_object_names_its_field(running, battle, game_master, die):
    a = _ids(running, "petrov")[0]
    c = APIClient()
    c.force_authenticate(game_master)
    battle = battle_create(campaign=running, name="b")
    r = c.post(f"/api/battles/{battle.id}/command/roll/", {"side": "attacker", "rolls": {str(a): die}},
               format="json")
    assert r.status_code == 400, r.content
    assert r.json()["error"]["field"] == f"rolls.{a}"


@pytest.mark.django_db(transaction=True)
def test_after_the_reveal_a_command_die_is_drawn_uncommitted(running, game_master):
    battle = battle_create(campaign=running, name="b")
    _start_and_end(battle)
    a, b = _ids(running, "petrov", "sidorov")
    command.command_roll(battle=battle, side="attacker", rolls={a: ROLLED, b: ROLLED}, by=game_master)
    dice = _rolls(battle)[0].data["rolls"].values()
    assert {d["rng"] for d in dice} == {"secrets"}
    verdict = battle_log_verify(battle_id=battle.id)
    assert verdict.ok and verdict.dice.command_checked == 0 and verdict.dice.uncommitted == 2


@pytest.mark.django_db(transaction=True)
def test_the_docs_script_re_derives_the_command_dice_once_revealed(rolled):
    """docs/verify.md "Committed dice": ``first_bad_command_roll``, run as written on the API's answers."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "verify.md").read_text()
    namespace = {}
    exec(re.search(r"## Committed dice.*?```python\n(.*?)```", text, re.S).group(1), namespace)  # noqa: S102
    api = APIClient()
    assert api.get(f"/api/battles/{rolled.id}/").json()["dice_secret"] is None  # not before the end
    _start_and_end(rolled)
    detail, verdict = api.get(f"/api/battles/{rolled.id}/").json(), _verify_api(rolled.id)
    assert len(verdict["dice"]["command_dice"]) == verdict["dice"]["command_checked"] >= 4
    assert namespace["first_bad_command_roll"](detail, verdict) is None
    forged = verdict["dice"]["command_dice"][1]
    forged["value"] = forged["value"] % 20 + 1
    assert namespace["first_bad_command_roll"](detail, verdict) == (forged["side"], forged["round"])
