"""Formulary cards (V-FORM): 4.5 × 7.5 cm, one kind each for characters,
awards, units, vehicles and upgrades, with the fields the rules name."""
import re

import pytest
from django.test import Client

from campaign import services
from campaign.models import Nationality
from rosters import services as roster_services
from rosters.models import InfantryClass, Upgrade, VehicleOption


@pytest.fixture
def roster(make_player):
    user, character = make_player("kartochkin", rank="lieutenant")
    r = roster_services.roster_create(user=user, character=character, name="3-я стрелковая дивизия")
    squad = roster_services.unit_add(user=user, roster=r, kind="squad", name="1-е отделение")
    roster_services.fighter_add(user=user, roster=r, infantry_class=InfantryClass.objects.get(code="sergeant"),
                                unit=squad)
    roster_services.fighter_add(user=user, roster=r, infantry_class=InfantryClass.objects.get(code="rifleman"),
                                count=6, unit=squad)
    roster_services.unit_add(user=user, roster=r, kind="tactical_group", name="Снайперы", group_kind="sniper")
    roster_services.unit_add(user=user, roster=r, kind="motorised", name="Танковое отделение")
    upgrade = Upgrade.objects.create(code="grenades", name_ru="Гранаты", name_en="Grenades", cost=2,
                                     description="Связки гранат")
    squad.upgrades.add(upgrade)
    tank = roster_services.vehicle_add(user=user, roster=r, kind="tank", name="«За Родину!»", armour_class=3,
                                       gun_class=3, side_skirts=True,
                                       options=[VehicleOption.objects.get(code="spotter")])
    roster_services.fighter_add(user=user, roster=r, infantry_class=InfantryClass.objects.get(code="personnel"),
                                count=2, vehicle=tank)
    r.user = user
    return r


def cards(html):
    return re.findall(r'<div class="fcard (\w+)" data-kind="\w+">(.*?)</div>\s*(?=<div class="fcard|</div>)', html,
                      re.S)


@pytest.mark.django_db
class TestRosterCards:
    def page(self, roster, lang="ru"):
        c = Client()
        c.force_login(roster.user)
        r = c.get(f"/cards/roster/{roster.id}/", HTTP_ACCEPT_LANGUAGE=lang)
        assert r.status_code == 200
        return r.content.decode()

    def test_v_form_1_cards_are_4_5_by_7_5_cm(self, roster):
        html = self.page(roster)
        assert "width: 45mm; height: 75mm" in html

    def test_v_form_2_one_card_kind_each(self, roster):
        kinds = [k for k, _ in cards(self.page(roster))]
        assert kinds.count("character") == 1 and kinds.count("vehicle") == 1 and kinds.count("upgrade") == 1
        assert kinds.count("unit") == 3

    def test_v_tg_7_a_tactical_group_has_its_own_card(self, roster):
        units = [body for k, body in cards(self.page(roster)) if k == "unit"]
        assert any("Снайперы" in body for body in units)

    def test_v_form_7_and_v_base_5_unit_card_layout(self, roster):
        """Nationality bottom left, emblem bottom right, division, name and the
        squad number (as on the sergeant's base) in the centre; green."""
        html = self.page(roster)
        squad = next(body for k, body in cards(html) if k == "unit" and "1-е отделение" in body)
        assert '<span class="bl">СССР</span>' in squad and '<span class="br">' in squad
        assert "3-я стрелковая дивизия" in squad and '<div class="mark">№ 1</div>' in squad
        assert ".fcard.unit { background: #cfe3c2" in html

    def test_v_motor_2_the_motorised_unit_card_names_its_formation(self, roster):
        motor = next(body for k, body in cards(self.page(roster, "en")) if k == "unit" and "Танковое" in body)
        assert "Formation: Танковое отделение" in motor

    def test_v_form_4_5_and_v_veh_8_vehicle_card(self, roster):
        """The vehicle's mark and characteristics (V-FORM-4), its crew (V-FORM-5)
        and its specialisation marker (V-VEH-8)."""
        tank = next(body for k, body in cards(self.page(roster, "en")) if k == "vehicle")
        assert "«За Родину!»" in tank and "Armour class 3" in tank and "Gun class 3" in tank
        assert "Crew: 2 × " in tank and "Side skirts" in tank
        assert f'<span class="badge">{VehicleOption.objects.get(code="spotter").name_en}</span>' in tank

    def test_only_the_owner_or_the_game_master_prints_a_roster(self, roster, make_player, game_master):
        other, _ = make_player("chuzhoy")
        c = Client()
        c.force_login(other)
        assert c.get(f"/cards/roster/{roster.id}/").status_code == 404
        c.force_login(game_master)
        assert c.get(f"/cards/roster/{roster.id}/").status_code == 200

    def test_the_page_runs_a_constant_number_of_queries(self, roster, django_assert_max_num_queries):
        c = Client()
        c.force_login(roster.user)
        with django_assert_max_num_queries(16):
            c.get(f"/cards/roster/{roster.id}/")


@pytest.mark.django_db
def test_v_rank_3_character_card_and_award_cards(make_player, running, game_master, client):
    from battles.services import battle_create
    from campaign import results
    from campaign.models import AwardRule

    from .test_results import cid, finish

    AwardRule.objects.filter(metric="kills").update(threshold=1)
    battle = battle_create(campaign=running, name="Бой 1")
    finish(battle, winner="attacker", credits={cid(running, "petrov"): {"kills": 3}})
    for p in results.battle_conclude(battle_id=battle.id):
        if p.award_id:
            services.proposal_decide(proposal=p, approve=True, by=game_master)
    html = client.get(f"/cards/character/{cid(running, 'petrov')}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    found = cards(html)
    character = next(body for k, body in found if k == "character")
    assert "Petrov" in character and "Сержант" in character and Nationality.objects.get(code="su").name_ru in character
    assert any(k == "award" and "Petrov" in body for k, body in found)
