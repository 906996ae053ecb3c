"""Roster builder pages without JavaScript: every change is a form POST."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from rosters import services
from rosters.models import Roster, Status

from .conftest import build_squad

pytestmark = pytest.mark.django_db


@pytest.fixture
def web(player):
    c = Client()
    c.force_login(player)
    return c


def test_pages_need_a_login(client):
    from django.conf import settings
    from django.shortcuts import resolve_url

    r = client.get("/rosters/")
    assert r.status_code == 302 and r["Location"].startswith(resolve_url(settings.LOGIN_URL) + "?next=")


def test_create_a_roster_and_build_a_squad_with_forms(web, character):
    r = web.post("/rosters/new/", {"name": "Взвод", "character": character.pk, "side": ""})
    roster = Roster.objects.get(name="Взвод")
    assert r.status_code == 302 and r["Location"] == f"/rosters/{roster.pk}/"
    web.post(f"/rosters/{roster.pk}/units/add/", {"kind": "squad", "name": "Первое"})
    unit = roster.units.get()
    for cls, count, team in (("sergeant", 1, 1), ("rifleman", 4, 1), ("corporal", 1, 2), ("rifleman", 4, 2)):
        web.post(f"/rosters/{roster.pk}/fighters/add/",
                 {"infantry_class": cls, "count": count, "place": f"u{unit.pk}", "fire_team": team})
    html = web.get(f"/rosters/{roster.pk}/").content.decode()
    assert re.search(r'data-testid="total">10<', html) and "16" in html
    assert 'data-testid="valid"' in html
    r = web.post(f"/rosters/{roster.pk}/submit/", follow=True)
    assert "Подан" in r.content.decode() or "подан" in r.content.decode()
    roster.refresh_from_db()
    assert roster.status == Status.SUBMITTED


def test_v_squad_7_violation_shown_next_to_its_unit_and_submit_refused(web, squad_roster):
    """V-SQUAD-7 beside the squad; V-TURN-1: the refusal lists the violations."""
    unit = squad_roster.units.get()
    web.post(f"/rosters/{squad_roster.pk}/fighters/add/",
             {"infantry_class": "sniper", "count": 2, "place": f"u{unit.pk}", "fire_team": 1})
    html = web.get(f"/rosters/{squad_roster.pk}/").content.decode()
    section = html.split(f'id="unit-{unit.pk}"')[1].split("</section>")[0]
    assert 'data-rule="V-SQUAD-7"' in section
    r = web.post(f"/rosters/{squad_roster.pk}/submit/", follow=True)
    assert "нельзя подать" in r.content.decode()
    squad_roster.refresh_from_db()
    assert squad_roster.status == Status.DRAFT


def test_count_form_changes_and_removes_a_line(web, squad_roster):
    line = squad_roster.fighters.filter(infantry_class__code="rifleman").first()
    web.post(f"/rosters/{squad_roster.pk}/fighters/{line.pk}/count/", {"count": 6})
    line.refresh_from_db()
    assert line.count == 6
    web.post(f"/rosters/{squad_roster.pk}/fighters/{line.pk}/count/", {"count": 0})
    assert not squad_roster.fighters.filter(pk=line.pk).exists()


def test_other_players_get_404_and_master_sees_lock(squad_roster, other_player, game_master):
    c = Client()
    c.force_login(other_player)
    assert c.get(f"/rosters/{squad_roster.pk}/").status_code == 404
    assert c.post(f"/rosters/{squad_roster.pk}/units/add/", {"kind": "squad"}).status_code == 404
    gm = Client()
    gm.force_login(game_master)
    html = gm.get(f"/rosters/{squad_roster.pk}/").content.decode()
    assert f"/rosters/{squad_roster.pk}/lock/" in html
    gm.post(f"/rosters/{squad_roster.pk}/lock/")
    squad_roster.refresh_from_db()
    assert squad_roster.status == Status.LOCKED


def test_english_page(web, squad_roster):
    web.post("/i18n/setlang/", {"language": "en", "next": "/"})
    html = web.get(f"/rosters/{squad_roster.pk}/").content.decode()
    assert "Submit for battle" in html and "Rifleman" in html
    web.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    html = web.get(f"/rosters/{squad_roster.pk}/").content.decode()
    assert "Подать на бой" in html and "Стрелок" in html


def test_reprice_banner_when_game_data_changes(web, squad_roster):
    from rosters.models import InfantryClass

    assert 'data-testid="reprice"' not in web.get(f"/rosters/{squad_roster.pk}/").content.decode()
    row = InfantryClass.objects.get(code="rifleman")
    row.cost = 2
    services.game_data_row_save(row=row, changed=["cost"])
    html = web.get(f"/rosters/{squad_roster.pk}/").content.decode()
    assert 'data-testid="reprice"' in html and "18" in html
    web.post(f"/rosters/{squad_roster.pk}/reprice/")
    assert 'data-testid="reprice"' not in web.get(f"/rosters/{squad_roster.pk}/").content.decode()


def test_export_json_download(web, squad_roster):
    r = web.get(f"/rosters/{squad_roster.pk}/?format=json")
    assert r["Content-Type"] == "application/json" and r.json()["format"] == "shtab-roster"


def test_roster_page_query_count_is_constant(web, squad_roster, player):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    services.vehicle_add(user=player, roster=squad_roster, kind="car", unit=squad_roster.units.get())
    with CaptureQueriesContext(connection) as small:
        assert web.get(f"/rosters/{squad_roster.pk}/").status_code == 200
    for i in range(8):
        unit = build_squad(squad_roster, player, name=f"s{i}")
        services.vehicle_add(user=player, roster=squad_roster, kind="car", unit=unit)
    with CaptureQueriesContext(connection) as large:
        assert web.get(f"/rosters/{squad_roster.pk}/").status_code == 200
    assert [q["sql"][:60] for q in large.captured_queries] == [q["sql"][:60] for q in small.captured_queries]


def test_import_page_refuses_bad_files_whole_and_imports_good_ones(web, squad_roster, character):
    import io
    import json

    from rosters import selectors

    data = selectors.roster_export(tree=selectors.roster_tree(roster_id=squad_roster.pk))
    before = Roster.objects.count()
    bad = dict(data, fighters=data["fighters"] + [{"class": "dragon", "unit": None}])
    r = web.post("/rosters/import/", {"character": character.pk,
                                      "file": io.BytesIO(json.dumps(bad).encode())})
    assert r.status_code == 200 and "dragon" in r.content.decode()
    assert Roster.objects.count() == before
    good = io.BytesIO(json.dumps(data).encode())
    good.name = "roster.json"
    r = web.post("/rosters/import/", {"character": character.pk, "file": good})
    assert r.status_code == 302 and Roster.objects.count() == before + 1


def test_v_upg_1_upgrade_card_bought_from_the_unit_card(web, squad_roster):
    from rosters.models import Upgrade

    Upgrade.objects.create(code="grenades", name_ru="Гранаты", name_en="Grenades", cost=3)
    unit = squad_roster.units.get()
    html = web.get(f"/rosters/{squad_roster.pk}/").content.decode()
    assert f"/units/{unit.pk}/upgrade/" in html
    web.post(f"/rosters/{squad_roster.pk}/units/{unit.pk}/upgrade/", {"upgrade": "grenades"})
    squad_roster.refresh_from_db()
    assert squad_roster.priced_total == 13 and list(unit.upgrades.values_list("code", flat=True)) == ["grenades"]
    web.post(f"/rosters/{squad_roster.pk}/units/{unit.pk}/upgrade/", {"upgrade": ""})
    squad_roster.refresh_from_db()
    assert squad_roster.priced_total == 10


def test_master_filters_the_roster_list(squad_roster, game_master, campaign, player, enlist):
    from rosters import services

    enlist(campaign, squad_roster.character, "attacker")
    services.roster_update(user=player, roster=squad_roster, campaign=campaign, side="attacker")
    gm = Client()
    gm.force_login(game_master)
    assert squad_roster.name in gm.get(f"/rosters/?campaign={campaign.pk}&side=attacker").content.decode()
    assert squad_roster.name not in gm.get("/rosters/?side=defender").content.decode()
    assert squad_roster.name not in gm.get("/rosters/?status=locked").content.decode()


def test_platoon_card_shows_its_own_cost_and_the_subtotal_with_its_squads(web, roster, player):
    from rosters.models import InfantryClass

    platoon = services.unit_add(user=player, roster=roster, kind="platoon", name="Взвод")
    services.fighter_add(user=player, roster=roster, infantry_class=InfantryClass.objects.get(code="lieutenant"),
                         unit=platoon)
    build_squad(roster, player, parent=platoon)
    build_squad(roster, player, parent=platoon, name="2-е")
    html = web.get(f"/rosters/{roster.pk}/").content.decode()
    card = html.split(f'id="unit-{platoon.pk}"')[1]
    assert re.search(r'data-testid="unit-cost">2 ', card) and "22)" in card.split("</header>")[0]


def test_officers_show_under_national_rank_names(other_player, other_character):
    """G-23: a German roster shows Feldwebel for the sergeant."""
    roster = services.roster_create(user=other_player, character=other_character, name="Gruppe")
    build_squad(roster, other_player)
    c = Client()
    c.force_login(other_player)
    html = c.get(f"/rosters/{roster.pk}/").content.decode()
    assert "Фельдфебель" in html and "Унтер-офицер" in html


def test_changes_to_a_submitted_roster_are_refused_with_a_message(web, squad_roster, player):
    services.roster_submit(user=player, roster=squad_roster)
    r = web.post(f"/rosters/{squad_roster.pk}/units/add/", {"kind": "squad", "name": "Лишнее"}, follow=True)
    assert "верните его в черновик" in r.content.decode()
    assert squad_roster.units.count() == 1
    r = web.post(f"/rosters/{squad_roster.pk}/units/add/", {"kind": "battleship"}, follow=True)
    assert "Проверьте форму подразделения" in r.content.decode()
    r = web.post(f"/rosters/{squad_roster.pk}/reopen/", follow=True)
    squad_roster.refresh_from_db()
    assert squad_roster.status == Status.DRAFT and 'data-testid="submit"' in r.content.decode()


def test_roster_list_shows_each_roster_checked_in_constant_queries(squad_roster, game_master, player):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    gm = Client()
    gm.force_login(game_master)
    gm.get("/rosters/")
    with CaptureQueriesContext(connection) as one:
        html = gm.get("/rosters/").content.decode()
    assert "10 / 16" in html and "Без нарушений" in html
    for i in range(4):
        extra = services.roster_duplicate(user=player, roster=squad_roster)
        build_squad(extra, player, name=f"extra {i}")  # 20 PP > 16: V-PP-2
    with CaptureQueriesContext(connection) as five:
        html = gm.get("/rosters/").content.decode()
    assert html.count("20 / 16") == 4 and "1 нарушение" in html
    assert len(five.captured_queries) == len(one.captured_queries)


def test_v_crew_2_crew_added_from_the_vehicle_card_is_free_for_a_tank(web, roster, player):
    """V-CREW-2, V-CREW-3: the tank's crew costs nothing and silences the no-crew warning."""
    vehicle = services.vehicle_add(user=player, roster=roster, kind="tank", name="Т-34", armour_class=3)
    html = web.get(f"/rosters/{roster.pk}/").content.decode()
    card = html.split(f'id="vehicle-{vehicle.pk}"')[1]
    assert f'value="v{vehicle.pk}"' in card and 'data-rule="V-CREW-3"' in card
    web.post(f"/rosters/{roster.pk}/fighters/add/", {"infantry_class": "personnel", "count": 2,
                                                    "place": f"v{vehicle.pk}"})
    web.post(f"/rosters/{roster.pk}/fighters/add/", {"infantry_class": "corporal", "count": 1,
                                                    "place": f"v{vehicle.pk}"})
    html = web.get(f"/rosters/{roster.pk}/").content.decode()
    assert 'data-rule="V-CREW-3"' not in html and re.search(r'data-testid="total">3<', html)


def test_v_squad_1_moving_a_line_to_the_other_fire_team_from_the_page(web, squad_roster):
    """V-SQUAD-1: 4 riflemen moved from team 2 to team 1 make teams of 9 and 1."""
    line = squad_roster.fighters.get(infantry_class__code="rifleman", fire_team=2)
    web.post(f"/rosters/{squad_roster.pk}/fighters/{line.pk}/count/", {"count": 4, "fire_team": 1})
    line.refresh_from_db()
    assert line.fire_team == 1
    html = web.get(f"/rosters/{squad_roster.pk}/").content.decode()
    assert 'data-rule="V-SQUAD-1"' in html
    web.post(f"/rosters/{squad_roster.pk}/fighters/{line.pk}/count/", {"count": 4})  # no team field: kept
    line.refresh_from_db()
    assert line.fire_team == 1


def test_a_roster_for_a_campaign_before_acceptance_or_for_the_wrong_side_is_a_form_error(web, player, campaign, roster):
    """Issue 13: said plainly under the field, in both languages, never overridden."""
    from campaign.models import Character, Membership

    character = Character.objects.filter(owner=player).first()
    m = Membership.objects.create(campaign=campaign, player=player, character=character, status="requested")
    data = {"name": "Ранний состав", "character": character.pk, "campaign": campaign.pk, "side": ""}
    html = web.post("/rosters/new/", data, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "ещё не принята мастером" in html and 'class="errorlist' in html
    assert "campaign: " not in html  # the label names the field; the message does not repeat its key
    en = web.post("/rosters/new/", data, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "has not yet accepted" in en
    m.status, m.side = "active", "defender"
    m.save()
    html = web.post("/rosters/new/", {**data, "side": "attacker"}, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "воюет за сторону «Обороняющиеся»" in html
    assert not Roster.objects.filter(name="Ранний состав").exists()
    r = web.post("/rosters/new/", {**data, "side": ""})
    assert r.status_code == 302 and Roster.objects.get(name="Ранний состав").side == "defender"
