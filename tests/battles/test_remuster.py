"""A wrong muster is mended without losing the log (issue 25, V-TURN-13): before
the first «Ход» the game master changes the participants and musters anew (each
side's ``force_mustered`` with ``replace``); after it, only reinforcements."""
from __future__ import annotations

import pytest

from battles.models import BattleEvent, BattleParticipant
from battles.services import NewEvent, battle_event_append, battle_replay
from battles.setup import muster
from config.errors import Conflict
from rosters.models import Status
from tests.battles.conftest import build_roster
from tests.battles.test_recording import client_for


def _state(battle):
    battle_replay(battle_id=battle.id)
    return battle.projection.__class__.objects.get(battle=battle).state


@pytest.mark.django_db
class TestRemuster:
    def test_v_turn_13_a_forgotten_player_joins_and_the_sides_are_mustered_anew(self, table, make_member):
        t = table
        for char, roster in ((t.ivan_char, t.ivan_roster), (t.hans_char, t.hans_roster)):
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=char, roster=roster)
        muster.battle_muster(user=t.gm, battle=t.battle)
        before = BattleEvent.objects.filter(battle=t.battle).count()
        assert not any(x.get("player") == "petr" for x in _state(t.battle)["fighters"].values())
        # petr was forgotten: the game master adds him on the set-up page and musters anew
        petr, petr_char = make_member(t.campaign, "petr", "defender", by=t.gm)
        petr_roster = build_roster(petr, petr_char, t.campaign, name="Отделение Лапина")
        gm = client_for(t.gm)
        page = gm.get(f"/battles/{t.battle.id}/setup/").content.decode()
        assert 'name="action" value="remuster"' in page
        r = gm.post(f"/battles/{t.battle.id}/setup/", {"action": "add", "roster": str(petr_roster.id)})
        assert r.status_code == 302
        r = gm.post(f"/battles/{t.battle.id}/setup/", {"action": "remuster"})
        assert r.status_code == 302
        events = list(BattleEvent.objects.filter(battle=t.battle).order_by("seq"))
        assert len(events) == before + 2 and [e.data["replace"] for e in events[-2:]] == [True, True]
        state = _state(t.battle)
        defenders = {x.get("player") for x in state["fighters"].values() if x["side"] == "defender"}
        assert defenders == {"ivan", "petr"}
        assert BattleParticipant.objects.get(battle=t.battle, character=petr_char).mustered_seq == events[-2].seq
        petr_roster.refresh_from_db()
        assert petr_roster.status == Status.LOCKED
        # nothing was lost: the first muster is still in the log, and the battle goes on from the new one
        assert [e.type for e in events[:before]].count("force_mustered") == 2

    def test_v_turn_13_after_the_first_hod_only_reinforcements(self, table):
        t = table
        for char, roster in ((t.ivan_char, t.ivan_roster), (t.hans_char, t.hans_roster)):
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=char, roster=roster)
        muster.battle_muster(user=t.gm, battle=t.battle)
        battle_event_append(battle_id=t.battle.id, expected_seq=None, as_game_master=True,
                            events=[NewEvent("turn_ended", {"side": "defender", "turn": 1})])
        battle_replay(battle_id=t.battle.id)
        t.battle.refresh_from_db()
        assert not muster.battle_may_remuster(battle=t.battle)
        with pytest.raises(Conflict) as exc:
            muster.battle_remuster(user=t.gm, battle=t.battle)
        assert exc.value.rule_id == "V-TURN-13"
        with pytest.raises(Conflict):
            muster.battle_participant_remove(user=t.gm, participant=t.battle.participants.first())
        assert "remuster" not in client_for(t.gm).get(f"/battles/{t.battle.id}/setup/").content.decode()

    def test_a_participant_cannot_pre_claim_the_remusters_keys(self, table):
        """Issue 27 §2: the remuster's keys are not guessable, so a participant who stores an
        event under the key the game master's remuster would use blocks nothing."""
        from battles.access import battle_role

        t = table
        for char, roster in ((t.ivan_char, t.ivan_roster), (t.hans_char, t.hans_roster)):
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=char, roster=roster)
        muster.battle_muster(user=t.gm, battle=t.battle)
        state = _state(t.battle)
        t.battle.refresh_from_db()
        head = t.battle.head_seq + 1  # the head after ivan's entry below
        units = {u: "dug_in" for u, x in state["units"].items() if x["side"] == "defender"}
        # the key today's remuster would give the defender's force_mustered at the head after this entry
        guessed = f"remuster-{t.battle.pk}-{head}-defender"
        battle_event_append(battle_id=t.battle.id, events=[NewEvent("postures_declared", {
            "side": "defender", "units": units}, key=guessed)], expected_seq=None, recorded_by=t.ivan_char.owner,
            role=battle_role(battle_id=t.battle.pk, user=t.ivan_char.owner))
        _state(t.battle)
        t.battle.refresh_from_db()
        result = muster.battle_remuster(user=t.gm, battle=t.battle)
        assert [e.type for e in result.events] == ["force_mustered", "force_mustered"]
        assert all(e.data["replace"] for e in result.events)
