"""Mustering a Flames of War battle from the setup page, the admin and the API:
the game master chooses the table's units (inches or centimetres) and who
moves first (the seeds do not say); a v11.2 battle offers no such choice."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import BattleEvent

from .test_fow_muster import fow_table  # noqa: F401  (the fixture)
from .test_setup_pages import _api, _web

pytestmark = pytest.mark.django_db

HINT = "не говорят, кто ходит первым"


def _started(battle):
    return BattleEvent.objects.get(battle=battle, type="battle_started").data


def _team_movement(battle, team_id):
    for e in BattleEvent.objects.filter(battle=battle, type="force_mustered"):
        for p in e.data["platoons"]:
            for t in p["teams"]:
                if t["id"] == team_id:
                    return t["movement"]
    raise AssertionError(team_id)


class TestSetupPage:
    def test_a_fow_battle_asks_the_units_and_the_first_mover_without_javascript(self, fow_table):  # noqa: F811
        html = _web(fow_table.gm).get(f"/battles/{fow_table.battle.pk}/setup/").content.decode()
        assert 'name="units" value="in" checked' in html and 'name="units" value="cm"' in html
        assert 'name="first_mover" value="attacker" checked' in html and 'name="first_mover" value="defender"' in html
        assert "дюймы" in html and "сантиметры" in html and "Вермахт" in html and "РККА" in html
        assert HINT in html

    def test_the_chosen_units_and_first_mover_reach_battle_started(self, fow_table):  # noqa: F811
        r = _web(fow_table.gm).post(f"/battles/{fow_table.battle.pk}/setup/",
                                    {"action": "muster", "units": "cm", "first_mover": "defender"}, follow=True)
        assert r.status_code == 200
        started = _started(fow_table.battle)
        assert started["units"] == "cm" and started["first_mover"] == "defender" and started["ruleset"] == "fow"
        assert _team_movement(fow_table.battle, "hans-p1-t2") == 15  # the rifle team's cm value

    def test_inches_and_the_attacker_first_are_kept_too(self, fow_table):  # noqa: F811
        _web(fow_table.gm).post(f"/battles/{fow_table.battle.pk}/setup/",
                                {"action": "muster", "units": "in", "first_mover": "attacker"})
        started = _started(fow_table.battle)
        assert (started["units"], started["first_mover"]) == ("in", "attacker")
        assert _team_movement(fow_table.battle, "hans-p1-t2") == 6

    def test_a_bad_choice_is_refused_as_a_message_naming_the_field(self, fow_table):  # noqa: F811
        r = _web(fow_table.gm).post(f"/battles/{fow_table.battle.pk}/setup/",
                                    {"action": "muster", "units": "mm", "first_mover": "attacker"}, follow=True)
        assert "units: дюймы (in) или сантиметры (cm)" in r.content.decode()
        assert not BattleEvent.objects.filter(battle=fow_table.battle).exists()

    def test_a_v11_2_battle_offers_no_such_choice(self, table):
        html = _web(table.gm).get(f"/battles/{table.battle.pk}/setup/").content.decode()
        assert 'name="units"' not in html and 'name="first_mover"' not in html and HINT not in html

    def test_the_choice_costs_the_page_no_query(self, fow_table):  # noqa: F811
        client = _web(fow_table.gm)
        url = f"/battles/{fow_table.battle.pk}/setup/"
        client.get(url)  # warm the session and caches
        with CaptureQueriesContext(connection) as fow:
            assert 'name="units"' in client.get(url).content.decode()
        fow_table.campaign.ruleset = "v11.2"
        fow_table.campaign.save()
        with CaptureQueriesContext(connection) as plain:
            assert 'name="units"' not in client.get(url).content.decode()
        assert len(fow.captured_queries) == len(plain.captured_queries)


class TestAdmin:
    def test_the_change_page_muster_button_carries_the_choice(self, fow_table):  # noqa: F811
        client = _web(fow_table.gm)
        html = client.get(f"/admin/battles/battle/{fow_table.battle.pk}/change/").content.decode()
        assert 'name="units"' in html and 'name="first_mover"' in html
        client.post(f"/admin/battles/battle/{fow_table.battle.pk}/muster/", {"units": "cm", "first_mover": "defender"})
        started = _started(fow_table.battle)
        assert (started["units"], started["first_mover"]) == ("cm", "defender")

    def test_a_v11_2_change_page_has_no_choice(self, table):
        html = _web(table.gm).get(f"/admin/battles/battle/{table.battle.pk}/change/").content.decode()
        assert 'name="units"' not in html and 'name="first_mover"' not in html

    def test_the_list_action_asks_first_then_musters_with_the_choice(self, fow_table):  # noqa: F811
        client = _web(fow_table.gm)
        pk = fow_table.battle.pk
        r = client.post("/admin/battles/battle/", {"action": "muster_battles", "_selected_action": [pk]})
        html = r.content.decode()
        assert r.status_code == 200 and f'name="units-{pk}"' in html and f'name="first_mover-{pk}"' in html
        assert HINT in html and fow_table.battle.name in html
        assert not BattleEvent.objects.filter(battle=fow_table.battle).exists()  # nothing yet
        client.post("/admin/battles/battle/", {"action": "muster_battles", "_selected_action": [pk], "apply": "1",
                                               f"units-{pk}": "cm", f"first_mover-{pk}": "defender"})
        started = _started(fow_table.battle)
        assert (started["units"], started["first_mover"]) == ("cm", "defender")


    def test_a_battle_under_way_is_not_asked_about_again(self, fow_table):  # noqa: F811
        client = _web(fow_table.gm)
        pk = fow_table.battle.pk
        client.post("/admin/battles/battle/", {"action": "muster_battles", "_selected_action": [pk], "apply": "1",
                                               f"units-{pk}": "cm", f"first_mover-{pk}": "defender"})
        count = BattleEvent.objects.filter(battle=fow_table.battle).count()
        assert count > 0
        r = client.post("/admin/battles/battle/", {"action": "muster_battles", "_selected_action": [pk]}, follow=True)
        html = r.content.decode()
        assert f'name="units-{pk}"' not in html and HINT not in html
        assert BattleEvent.objects.filter(battle=fow_table.battle).count() == count
        assert any(m.level_tag == "error" for m in r.context["messages"])

class TestApi:
    def test_the_api_musters_with_the_chosen_units_and_first_mover(self, fow_table):  # noqa: F811
        r = _api(fow_table.gm).post(f"/api/battles/{fow_table.battle.pk}/muster/",
                                    {"units": "cm", "first_mover": "defender"}, format="json")
        assert r.status_code == 201, r.content
        started = _started(fow_table.battle)
        assert (started["units"], started["first_mover"]) == ("cm", "defender")

    def test_without_a_choice_a_fow_battle_measures_in_inches_and_the_attacker_moves_first(self, fow_table):  # noqa
        assert _api(fow_table.gm).post(f"/api/battles/{fow_table.battle.pk}/muster/").status_code == 201
        started = _started(fow_table.battle)
        assert (started["units"], started["first_mover"]) == ("in", "attacker")

    @pytest.mark.parametrize("body, field", [({"units": "mm"}, "units"), ({"first_mover": "umpire"}, "first_mover")])
    def test_a_bad_choice_is_400_naming_the_field(self, fow_table, body, field):  # noqa: F811
        r = _api(fow_table.gm).post(f"/api/battles/{fow_table.battle.pk}/muster/", body, format="json")
        assert r.status_code == 400 and r.json()["error"]["field"] == field
        assert not BattleEvent.objects.filter(battle=fow_table.battle).exists()

    def test_a_player_is_refused_before_the_body_is_read(self, fow_table):  # noqa: F811
        ivan = fow_table.battle.participants.get(character__owner__username="ivan").character.owner
        r = _api(ivan).post(f"/api/battles/{fow_table.battle.pk}/muster/", {"units": "mm"}, format="json")
        assert r.status_code == 403

    def test_a_v11_2_battle_refuses_the_fow_choice(self, table):
        from battles.setup import muster

        muster.battle_participant_add(user=table.gm, battle=table.battle, character=table.ivan_char,
                                      roster=table.ivan_roster)
        muster.battle_participant_add(user=table.gm, battle=table.battle, character=table.hans_char,
                                      roster=table.hans_roster)
        r = _api(table.gm).post(f"/api/battles/{table.battle.pk}/muster/", {"units": "cm"}, format="json")
        assert r.status_code == 400 and r.json()["error"]["field"] == "units"
        assert _api(table.gm).post(f"/api/battles/{table.battle.pk}/muster/").status_code == 201


def test_after_the_muster_the_setup_page_lists_the_fow_platoons_and_their_teams(fow_table):  # noqa: F811
    client = _web(fow_table.gm)
    client.post(f"/battles/{fow_table.battle.pk}/setup/", {"action": "muster", "units": "in",
                                                           "first_mover": "attacker"})
    html = client.get(f"/battles/{fow_table.battle.pk}/setup/").content.decode()
    assert "Бронепоезд «Ильич»" in html and "Бронепаровоз (Локомотив) №1" in html
    assert "Разведка" in html and "Стрелковое отделение №3" in html
    assert 'name="units"' not in html
