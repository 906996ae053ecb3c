"""The setup API, the game master's pages and admin, and the demo's muster."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from battles.models import BattleEvent, BattleParticipant
from battles.setup import muster

from .conftest import build_roster


def _web(user=None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    if user is not None:
        client.force_login(user)
    return client


def _api(user=None):
    from rest_framework.test import APIClient

    client = APIClient(HTTP_ACCEPT_LANGUAGE="ru")
    if user is not None:
        client.force_authenticate(user)
    return client


class TestApi:
    def test_participants_are_listed_with_names_and_side_labels(self, table):
        t = table
        muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.ivan_roster)
        r = _api(t.gm).get(f"/api/battles/{t.battle.pk}/participants/")
        assert r.status_code == 200
        [row] = r.json()
        assert [p["player"] for p in _api().get(f"/api/battles/{t.battle.pk}/participants/").json()] == [None], (
            "who plays whom is the table's business (issue 27)")
        assert row == {**row, "character": t.ivan_char.pk, "character_name": "Ivan", "player": "ivan",
                       "side": "defender", "side_label": "РККА", "roster": t.ivan_roster.pk,
                       "roster_name": "Рота Громова", "mustered_seq": None}

    @pytest.mark.parametrize("who", ["anonymous", "player"])
    def test_only_the_game_master_writes_and_a_stranger_learns_nothing(self, table, who):
        t = table
        client = _api(None if who == "anonymous" else t.ivan)
        for method, url, body in (
            ("post", f"/api/battles/{t.battle.pk}/participants/", {"character": 999999, "roster": "junk"}),
            ("delete", f"/api/battles/{t.battle.pk}/participants/999999/", None),
            ("post", f"/api/battles/{t.battle.pk}/muster/", None),
            ("post", "/api/battles/999999/muster/", None),
        ):
            r = getattr(client, method)(url, body, format="json")
            assert r.status_code in (401, 403), (url, r.status_code)
            assert "999999" not in r.content.decode()
        assert not BattleParticipant.objects.exists()

    def test_the_game_master_adds_removes_and_musters(self, table):
        t = table
        client = _api(t.gm)
        url = f"/api/battles/{t.battle.pk}/participants/"
        r = client.post(url, {"character": t.ivan_char.pk, "roster": t.ivan_roster.pk}, format="json")
        assert r.status_code == 201 and r.json()["roster_name"] == "Рота Громова"
        pid = r.json()["id"]
        assert client.delete(f"{url}{pid}/").status_code == 204
        assert client.post(url, {"character": t.ivan_char.pk, "roster": t.ivan_roster.pk}, format="json").status_code == 201
        r = client.post(url, {"character": t.hans_char.pk, "roster": t.hans_roster.pk}, format="json")
        assert r.status_code == 201 and r.json()["side_label"] == "Вермахт"
        r = client.post(f"/api/battles/{t.battle.pk}/muster/")
        assert r.status_code == 201
        body = r.json()
        assert [e["type"] for e in body["events"]] == ["force_mustered", "force_mustered", "battle_started"]
        assert body["head_seq"] == 3
        assert all(p["mustered_seq"] and p["mustered_total"] and p["mustered_version"] for p in body["participants"])
        again = client.post(f"/api/battles/{t.battle.pk}/muster/")
        assert again.status_code == 409 and again.json()["error"]["code"] == "already_mustered"
        assert BattleEvent.objects.filter(battle=t.battle).count() == 3

    def test_refusals_name_the_field_in_both_languages(self, table):
        t = table
        draft = build_roster(t.ivan, t.ivan_char, t.campaign, name="Черновик", lieutenant=True, submit=False)
        r = _api(t.gm).post(f"/api/battles/{t.battle.pk}/participants/",
                            {"character": t.ivan_char.pk, "roster": draft.pk}, format="json")
        assert r.status_code == 400
        err = r.json()["error"]
        assert err["field"] == "roster" and "Черновик" in err["message_ru"] and "submit" in err["message_en"]
        r = _api(t.gm).post(f"/api/battles/{t.battle.pk}/participants/",
                            {"character": 999999, "roster": draft.pk}, format="json")
        assert r.status_code == 404 and r.json()["error"]["field"] == "character"
        r = _api(t.gm).post(f"/api/battles/{t.battle.pk}/muster/")
        assert r.status_code == 400 and r.json()["error"]["code"] == "side_empty"


class TestPages:
    def test_non_game_masters_get_403_and_the_anonymous_are_sent_to_log_in(self, table):
        t = table
        for url in (f"/campaigns/{t.campaign.pk}/battles/new/", f"/battles/{t.battle.pk}/setup/"):
            assert _web(t.ivan).get(url).status_code == 403
            assert _web(t.ivan).post(url, {"action": "muster"}).status_code == 403
            assert _web().get(url).status_code == 302
        assert not t.battle.events.exists()

    def test_the_campaign_page_links_the_game_master_to_scheduling_and_setup(self, table):
        t = table
        url = f"/campaigns/{t.campaign.pk}/"
        html = _web(t.gm).get(url).content.decode()
        assert f"/campaigns/{t.campaign.pk}/battles/new/" in html and f"/battles/{t.battle.pk}/setup/" in html
        assert "Назначить бой" in html
        html = _web(t.ivan).get(url).content.decode()
        assert "/battles/new/" not in html and "/setup/" not in html

    def test_the_game_master_schedules_a_battle_without_javascript(self, table):
        t = table
        r = _web(t.gm).post(f"/campaigns/{t.campaign.pk}/battles/new/", {
            "name": "Ночной бой", "scheduled_for": "2027-01-15T18:30", "mission": "Взять мост",
            "victory_conditions": "", "objectives": []})
        battle = t.campaign.battles.get(name="Ночной бой")
        assert r.status_code == 302 and r["Location"] == f"/battles/{battle.pk}/setup/"
        from django.utils import timezone

        assert timezone.localtime(battle.scheduled_for).strftime("%Y-%m-%d %H:%M") == "2027-01-15 18:30"
        assert battle.mission == "Взять мост"

    def test_a_schedule_without_a_name_is_shown_again_with_the_error(self, table):
        t = table
        r = _web(t.gm).post(f"/campaigns/{t.campaign.pk}/battles/new/", {"name": "", "mission": "Взять мост"})
        assert r.status_code == 400 and "Взять мост" in r.content.decode()

    def test_setup_adds_removes_and_musters_and_then_shows_what_was_mustered(self, table):
        t = table
        client, url = _web(t.gm), f"/battles/{t.battle.pk}/setup/"
        html = client.get(url).content.decode()
        assert "Рота Громова" in html and "Kampfgruppe Weber" in html and "РККА" in html and "Вермахт" in html
        client.post(url, {"action": "add", "roster": t.ivan_roster.pk})
        client.post(url, {"action": "add", "roster": t.hans_roster.pk})
        assert t.battle.participants.count() == 2
        pid = t.battle.participants.get(character=t.hans_char).pk
        client.post(url, {"action": "remove", "participant": pid})
        assert t.battle.participants.count() == 1
        r = client.post(url, {"action": "muster"}, follow=True)
        assert "нет ни одного участника с составом" in r.content.decode()
        client.post(url, {"action": "add", "roster": t.hans_roster.pk})
        r = client.post(url, {"action": "muster"}, follow=True)
        html = r.content.decode()
        assert t.battle.events.count() == 3
        assert "Лейтенант Ivan" in html and "Стрелок №3" in html and "Т-34 «Гроза»" in html
        assert "1-е отделение, огневая группа 2" in html
        ivan = t.battle.participants.get(character=t.ivan_char)
        assert f"{ivan.mustered_total} ОП, игровые данные v{ivan.mustered_version}" in html
        assert 'name="action" value="add"' not in html
        assert not re.search(r"\b(attacker|defender|None|True)\b", re.sub(r"<[^>]+>", " ", html))

    def test_a_refusal_is_shown_as_a_message(self, table):
        t = table
        draft = build_roster(t.ivan, t.ivan_char, t.campaign, name="Черновик", lieutenant=True, submit=False)
        r = _web(t.gm).post(f"/battles/{t.battle.pk}/setup/", {"action": "add", "roster": draft.pk}, follow=True)
        assert "«Черновик» не подан" in r.content.decode()
        assert not t.battle.participants.exists()

    def test_the_setup_page_reads_at_a_fixed_number_of_queries(self, table, django_assert_max_num_queries,
                                                               make_member):
        from battles.setup.selectors import battle_setup

        t = table
        for n in range(3):
            user, char = make_member(t.campaign, f"extra{n}", "attacker", by=t.gm)
            roster = build_roster(user, char, t.campaign, lieutenant=True)
            muster.battle_participant_add(user=t.gm, battle=t.battle, character=char, roster=roster)
        battle = type(t.battle).objects.select_related("campaign").get(pk=t.battle.pk)
        with django_assert_max_num_queries(4):
            setup = battle_setup(battle=battle)
            [len(s.candidates) + len(s.participants) for s in setup.sides]
            [p.roster.name + p.character.owner.username for s in setup.sides for p in s.participants]


class TestAdmin:
    def test_the_change_page_has_the_participants_and_a_muster_button(self, table):
        t = table
        muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.ivan_roster)
        html = _web(t.gm).get(f"/admin/battles/battle/{t.battle.pk}/change/").content.decode()
        assert "participants-TOTAL_FORMS" in html and f"/admin/battles/battle/{t.battle.pk}/muster/" in html

    def test_the_muster_button_calls_the_service_and_shows_its_refusal(self, table):
        t = table
        client = _web(t.gm)
        r = client.post(f"/admin/battles/battle/{t.battle.pk}/muster/", follow=True)
        assert "нет ни одного участника с составом" in r.content.decode()
        muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.ivan_roster)
        muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.hans_char, roster=t.hans_roster)
        client.post(f"/admin/battles/battle/{t.battle.pk}/muster/")
        assert t.battle.events.count() == 3

    def test_the_muster_action_on_the_list(self, table):
        t = table
        muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.ivan_char, roster=t.ivan_roster)
        muster.battle_participant_add(user=t.gm, battle=t.battle, character=t.hans_char, roster=t.hans_roster)
        _web(t.gm).post("/admin/battles/battle/", {"action": "muster_battles", "_selected_action": [t.battle.pk]})
        assert t.battle.events.count() == 3

    def test_an_inline_row_goes_through_the_service(self, table):
        t = table
        client = _web(t.gm)
        url = f"/admin/battles/battle/{t.battle.pk}/change/"
        form = {"campaign": t.campaign.pk, "name": t.battle.name, "number": 1, "mission": "", "victory_conditions": "",
                "scheduled_for_0": "", "scheduled_for_1": "", "created_at_0": "2026-01-01", "created_at_1": "10:00:00",
                "participants-TOTAL_FORMS": 1, "participants-INITIAL_FORMS": 0, "participants-MIN_NUM_FORMS": 0,
                "participants-MAX_NUM_FORMS": 1000, "participants-0-character": t.ivan_char.pk,
                "participants-0-roster": t.hans_roster.pk, "participants-0-battle": t.battle.pk,
                "events-TOTAL_FORMS": 0, "events-INITIAL_FORMS": 0, "events-MIN_NUM_FORMS": 0,
                "events-MAX_NUM_FORMS": 0}
        r = client.post(url, form, follow=True)
        assert "состав другого персонажа" in r.content.decode()
        assert not t.battle.participants.exists()
        form["participants-0-roster"] = t.ivan_roster.pk
        client.post(url, form)
        p = t.battle.participants.get()
        assert (p.character_id, p.side) == (t.ivan_char.pk, "defender")


@pytest.mark.django_db
def test_the_demo_is_mustered_from_its_players_rosters_and_has_a_battle_ready_to_muster():
    from django.core.management import call_command

    from battles.models import Battle
    from battles.selectors import battle_names
    from campaign.models import Character

    call_command("loaddemo")
    played = Battle.objects.get(number=1, campaign__ruleset="v11.2")  # the FoW demo has its own battle 1
    upcoming = Battle.objects.get(number=2)
    ivan = Character.objects.get(owner__username="ivan")
    forces = {e.data["side"]: e.data for e in played.events.filter(type="force_mustered")}
    assert {f["id"]: f.get("character") for f in forces["defender"]["fighters"]}["ivan-f1"] == str(ivan.pk)
    assert played.participants.filter(mustered_seq__isnull=False).count() == 3
    assert battle_names(battle_id=played.pk)["petr-s1-f1"] == "Сержант Пётр Лапин"
    assert played.events.filter(type="battle_ended").exists()
    assert upcoming.scheduled_for is not None and upcoming.participants.count() == 3
    assert upcoming.head_seq == 0
    master = played.campaign.game_master
    call_command("loaddemo")
    # + the FoW demo campaign's battle with its 2 participants
    assert Battle.objects.count() == 3 and BattleParticipant.objects.count() == 6 + 2
    from rosters.models import Roster

    Roster.objects.update(status="submitted")  # what the end of battle 1 does after commit
    result = muster.battle_muster(user=master, battle=upcoming)
    assert [e.type for e in result.events] == ["force_mustered", "force_mustered", "battle_started"]
