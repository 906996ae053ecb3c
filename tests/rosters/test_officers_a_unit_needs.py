"""The builder offers the commander each unit or crew still lacks
(``rosters.domain.officers_missing``, no database): what the rules ask
(V-PLT-3, V-RANK-7, V-SQUAD-1/2, V-TG-4, V-MOTOR-6, V-CREW-3) and nothing more,
and one click on the page adds him where the rules want him."""
from __future__ import annotations

from dataclasses import replace

import pytest

from rosters import domain

from .builders import Build, ids, rules


def needs(b: Build, **overrides) -> dict[str, list[tuple[str, int | None]]]:
    return {k: [(n.rank, n.fire_team) for n in v]
            for k, v in domain.officers_missing(b.spec(), rules(**overrides)).items()}


def test_a_valid_company_needs_nobody():
    b = Build()
    b.company()
    assert needs(b) == {} and not ids(b.report()) - {"V-PP-4"}


def test_v_plt_3_and_v_rank_7_an_empty_company_and_platoon_need_their_captain_and_lieutenant():
    b = Build()
    company = b.unit("company")
    platoon = b.unit("platoon", company)
    assert needs(b) == {company: [("captain", None)], platoon: [("lieutenant", None)]}


def test_v_squad_1_and_2_an_empty_squad_needs_a_sergeant_in_team_1_and_a_corporal_in_team_2():
    b = Build()
    squad = b.unit("squad")
    b.add("rifleman", 4, squad, team=1)
    assert needs(b) == {squad: [("sergeant", 1), ("corporal", 2)]}


def test_v_squad_2_the_missing_officer_takes_the_other_fire_team():
    b = Build()
    squad = b.unit("squad")
    b.add("corporal", 1, squad, team=1)
    assert needs(b) == {squad: [("sergeant", 2)]}
    b2 = Build()
    squad2 = b2.unit("squad")
    b2.add("sergeant", 1, squad2, team=2)
    assert needs(b2) == {squad2: [("corporal", 1)]}


def test_v_off_7_an_attached_lieutenant_does_not_command_the_squad():
    b = Build()
    squad = b.unit("squad")
    b.add("lieutenant", 1, squad)
    assert needs(b) == {squad: [("sergeant", 1), ("corporal", 2)]}


def test_v_tg_4_a_tactical_group_needs_one_corporal():
    b = Build()
    b.group("recon")
    assert needs(b) == {}
    b2 = Build()
    empty = b2.unit("tactical_group", group_kind="recon")
    assert needs(b2) == {empty: [("corporal", None)]}


def test_g_19_an_hq_squad_and_a_reinforcement_group_follow_the_squad_rules_when_the_game_data_says_so():
    b = Build()
    company = b.unit("company")
    b.add("captain", 1, company)
    hq = b.unit("hq_squad", company)
    group = b.unit("tactical_group", company, group_kind="recon")
    assert needs(b) == {hq: [("sergeant", 1), ("corporal", 2)], group: [("corporal", None)]}
    assert needs(b, hq_squad_rules="free", reinforcement_group_rules="squad") == {
        group: [("sergeant", 1), ("corporal", 2)]}


def test_v_crew_3_and_v_motor_6_a_crew_outside_a_squad_needs_its_officer_a_squads_vehicle_none():
    b = Build()
    tank = b.vehicle("tank")
    crewed = b.vehicle("tank", crew=True)
    squad = b.squad()
    b.vehicle("car", unit=squad)  # V-SQUAD-6: the squad's corporal commands it
    motor = b.unit("motorised")
    apc = b.vehicle("apc", unit=motor)
    b.add("personnel", 2, vehicle=apc)
    assert needs(b) == {f"vehicle:{tank}": [("corporal", None)], f"vehicle:{apc}": [("corporal", None)]}
    assert f"vehicle:{crewed}" not in needs(b)


def test_the_officer_offered_is_the_game_datas_first_class_of_that_rank():
    b = Build()
    platoon = b.unit("platoon")
    data = rules()
    classes = {"staff_lt": domain.ClassData("staff_lt", "officer", "lieutenant", 5), **data.classes}
    found = domain.officers_missing(b.spec(), replace(data, classes=classes))
    assert [(n.cls, n.rank) for n in found[platoon]] == [("staff_lt", "lieutenant")]


def test_a_flames_of_war_roster_is_offered_no_v11_officer():
    b = Build()
    b.unit("platoon")
    assert domain.officers_missing(replace(b.spec(), ruleset="fow"), rules()) == {}


# --- on the page ------------------------------------------------------------------------
@pytest.mark.django_db
def test_one_click_on_the_offer_adds_the_lieutenant_the_platoon_lacks(player, roster):
    import re

    from django.test import Client

    from rosters import services

    web = Client()
    web.force_login(player)
    platoon = services.unit_add(user=player, roster=roster, kind="platoon", name="1-й взвод")
    html = web.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    unit = re.search(rf'<section class="unit[^"]*" id="unit-{platoon.pk}".*?</section>', html, re.S).group(0)
    offer = re.search(r'<div class="offers".*?</div>', unit, re.S).group(0)
    assert "Нужен командир:" in offer and "+ Лейтенант (2 ОП)" in offer
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', offer))
    assert fields == {"csrfmiddlewaretoken": fields["csrfmiddlewaretoken"], "place": f"u{platoon.pk}",
                      "infantry_class": "lieutenant", "count": "1"}
    del fields["csrfmiddlewaretoken"]
    web.post(f"/rosters/{roster.pk}/fighters/add/", fields)
    assert roster.fighters.get(unit=platoon).infantry_class.code == "lieutenant"
    html = web.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-officer="lieutenant"' not in html and 'data-rule="V-RANK-7"' not in html


@pytest.mark.django_db
def test_officers_are_offered_under_the_nations_rank_names_with_their_fire_team(player, roster):
    from django.test import Client

    from rosters import services

    web = Client()
    web.force_login(player)
    services.unit_add(user=player, roster=roster, kind="squad", name="1-е отделение")
    html = web.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "+ Сержант (1 ОП), группа 1" in html and "+ Младший сержант (1 ОП), группа 2" in html  # G-23, СССР
    en = web.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "It needs its commander:" in en and "team 2" in en


@pytest.mark.django_db
def test_a_reader_who_may_not_change_the_roster_is_offered_nothing(player, roster, client):
    from rosters import services

    services.unit_add(user=player, roster=roster, kind="platoon", name="1-й взвод")
    services.roster_share_set(user=player, roster=roster, on=True)
    roster.refresh_from_db()
    html = client.get(f"/rosters/{roster.pk}/?share={roster.share_token}").content.decode()
    assert 'data-rule="V-RANK-7"' in html and 'data-testid="officer-offers"' not in html
