"""The pre-battle command on the battle page (issue 25, V-RANK-9..12): the
side's players roll for the captain (entered or rolled dice, ties re-roll),
the captain assigns the others their posts; only that side and the game
master may."""
from __future__ import annotations

import re

import pytest

from campaign.models import CampaignEvent
from tests.battles import test_two_players_a_side
from tests.battles.test_recording import client_for, visible_text

two_defenders = test_two_players_a_side.two_defenders  # ivan and petr hold, hans attacks


def _roll(client, t, **faces):
    body = {"side": "defender"}
    for who, face in faces.items():
        cid = getattr(t, f"{who}_char").pk
        body[f"roll-{cid}-source"] = "entered"
        body[f"roll-{cid}-value"] = str(face)
    return client.post(f"/battles/{t.battle.id}/command/", body, HTTP_ACCEPT_LANGUAGE="ru")


@pytest.mark.django_db
class TestCommandOnThePage:
    def test_v_rank_9_v_rank_10_the_players_roll_ties_roll_again_and_the_highest_commands(self, two_defenders):
        t = two_defenders
        t.petr_char = t.battle.participants.get(character__owner=t.petr).character
        ivan = client_for(t.ivan)
        page = visible_text(ivan.get(f"/battles/{t.battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode())
        assert "Каждый игрок стороны бросает кубик" in page and "Petr" in page
        assert _roll(ivan, t, ivan=12, petr=12).status_code == 302  # a tie (G-13): both roll again
        page = visible_text(ivan.get(f"/battles/{t.battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode())
        assert "Круг 2" in page
        assert _roll(ivan, t, ivan=15, petr=9).status_code == 302
        page = visible_text(ivan.get(f"/battles/{t.battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode())
        assert "Ivan командует стороной в этом бою" in page
        rolls = CampaignEvent.objects.filter(battle=t.battle, type="command_roll").order_by("id")
        assert [e.data["round"] for e in rolls] == [1, 2]

    def test_v_rank_11_the_captain_assigns_posts_by_the_nations_rank_words(self, two_defenders):
        t = two_defenders
        t.petr_char = t.battle.participants.get(character__owner=t.petr).character
        ivan = client_for(t.ivan)
        _roll(ivan, t, ivan=18, petr=3)
        html = ivan.get(f"/battles/{t.battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert "Младший сержант" in html  # a Soviet corporal's word among the battle ranks
        r = ivan.post(f"/battles/{t.battle.id}/command/posts/", {
            "side": "defender", f"post-{t.petr_char.pk}-post": "командир 2-го отделения",
            f"post-{t.petr_char.pk}-rank": "sergeant"})
        assert r.status_code == 302
        e = CampaignEvent.objects.get(battle=t.battle, type="command_assigned")
        assert e.data["captain"] == t.ivan_char.pk
        assert e.data["posts"] == {str(t.petr_char.pk): {"post": "командир 2-го отделения", "rank": "sergeant"}}

    def test_v_rank_9_only_the_sides_players_and_the_game_master_roll_for_it(self, two_defenders):
        t = two_defenders
        t.petr_char = t.battle.participants.get(character__owner=t.petr).character
        assert _roll(client_for(t.hans), t, ivan=20, petr=1).status_code == 403
        assert _roll(client_for(None), t, ivan=20, petr=1).status_code == 403
        assert not CampaignEvent.objects.filter(battle=t.battle, type="command_roll").exists()
        r = _roll(client_for(t.ivan), t, ivan=21, petr=1)  # a face off the die: refused, in words
        assert r.status_code == 400 and re.search("от 1 до 20", r.content.decode())
        assert _roll(client_for(t.gm), t, ivan=20, petr=1).status_code == 302
