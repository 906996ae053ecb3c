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

    def test_v_rank_9_another_players_roll_reaches_an_open_page_by_its_live_request(self, two_defenders):
        """A command roll is a campaign event: it moves no head. A page with the command forms says how many
        command entries it shows (``data-command``), its live request asks with it, and a roll recorded
        from another page comes back with the section anew; once the captain has given the posts, the side's
        command is settled and the page stops asking."""
        t = two_defenders
        t.petr_char = t.battle.participants.get(character__owner=t.petr).character
        ivan, petr, hans = client_for(t.ivan), client_for(t.petr), client_for(t.hans)
        html = ivan.get(f"/battles/{t.battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        head, state = re.search(r'data-head="(\d+)" data-state="(\d+)"', html).groups()
        assert 'data-command="0"' in html and 'id="command-region"' in html
        assert 'data-command' not in hans.get(f"/battles/{t.battle.id}/").content.decode()  # a side of one
        live = f"/battles/{t.battle.id}/live/?since={head}&state={state}"

        def ask(command):
            return ivan.get(f"{live}&command={command}", HTTP_ACCEPT_LANGUAGE="ru").json()

        assert ask(0) == {"head_seq": int(head), "state_seq": int(state), "changed": False}
        assert _roll(petr, t, ivan=4, petr=17).status_code == 302  # petr rolls for both, from his page
        assert ivan.get(live).json()["changed"] is False  # (the head has not moved: without the count, nothing)
        d = ask(0)
        assert d["changed"] and d["command_seq"] == 1
        assert "Petr командует стороной в этом бою" in visible_text(d["command_html"])
        assert "раунд 1: Ivan: 4, Petr: 17." in visible_text(d["command_html"])  # people by name, never by id
        assert "Каждый игрок стороны бросает кубик" not in visible_text(d["command_html"])  # his forms: settled
        assert ask(1)["changed"] is False
        r = petr.post(f"/battles/{t.battle.id}/command/posts/", {
            "side": "defender", f"post-{t.ivan_char.pk}-post": "командир 1-го отделения",
            f"post-{t.ivan_char.pk}-rank": "sergeant"})
        assert r.status_code == 302
        d = ask(1)
        assert d["changed"] and d["command_seq"] is None  # settled: his page stops asking
        assert "назначил 1 должность. Ivan — командир 1-го отделения (сержант)." in visible_text(d["command_html"])
        assert "data-command" not in ivan.get(f"/battles/{t.battle.id}/").content.decode()
