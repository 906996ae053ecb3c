"""Fixtures of the mustering tests: a running campaign whose players bring
submitted rosters built through the rosters services."""
from __future__ import annotations

import pytest


def cls(code: str):
    from rosters.models import InfantryClass

    return InfantryClass.objects.get(code=code)


def build_roster(user, character, campaign, *, name="Отряд", squads=1, lieutenant=False, tank=False,
                 submit=True):
    """A valid roster through the services: ``squads`` squads (sergeant +
    4 riflemen, corporal + 4 riflemen), an optional lieutenant standing alone
    and an optional tank with its crew (2 personnel and a corporal)."""
    from rosters import services
    from rosters.models import VehicleOption

    roster = services.roster_create(user=user, character=character, name=name, campaign=campaign)
    if lieutenant:
        services.fighter_add(user=user, roster=roster, infantry_class=cls("lieutenant"))
    for n in range(1, squads + 1):
        unit = services.unit_add(user=user, roster=roster, kind="squad", name=f"{n}-е отделение")
        services.fighter_add(user=user, roster=roster, infantry_class=cls("sergeant"), unit=unit, fire_team=1)
        services.fighter_add(user=user, roster=roster, infantry_class=cls("rifleman"), count=4, unit=unit,
                             fire_team=1)
        services.fighter_add(user=user, roster=roster, infantry_class=cls("corporal"), unit=unit, fire_team=2)
        services.fighter_add(user=user, roster=roster, infantry_class=cls("rifleman"), count=3, unit=unit,
                             fire_team=2)
        services.fighter_add(user=user, roster=roster, infantry_class=cls("medic"), unit=unit, fire_team=2)
    if tank:
        vehicle = services.vehicle_add(user=user, roster=roster, kind="tank", name="Т-34 «Гроза»", armour_class=3,
                                       gun_class=3, side_skirts=True,
                                       options=list(VehicleOption.objects.filter(code="spotter")))
        services.fighter_add(user=user, roster=roster, infantry_class=cls("corporal"), vehicle=vehicle)
        services.fighter_add(user=user, roster=roster, infantry_class=cls("personnel"), count=2, vehicle=vehicle)
    if submit:
        services.roster_submit(user=user, roster=roster)
    roster.refresh_from_db()
    return roster


@pytest.fixture
def make_member(db):
    from django.contrib.auth.models import Group, User

    from campaign import services
    from campaign.models import Nationality

    def make(campaign, username, side, rank="lieutenant", by=None):
        user = User.objects.create_user(username=username, password="pw-" + username)
        user.groups.add(Group.objects.get(name="player"))
        character = services.character_create(owner=user, name=username.title(), rank=rank,
                                              nationality=Nationality.objects.get(code="su"))
        m = services.membership_request(campaign=campaign, character=character)
        services.membership_assign_side(membership=m, side=side, by=by)
        return user, character

    return make


@pytest.fixture
def table(campaign, game_master, make_member):
    """A running campaign with ivan (lieutenant, defender) and hans (lieutenant,
    attacker), each with a submitted roster, and a scheduled battle."""
    from battles.setup.muster import battle_schedule
    from campaign import services

    campaign.attacker_name, campaign.defender_name = "Вермахт", "РККА"
    campaign.save()
    ivan, ivan_char = make_member(campaign, "ivan", "defender", by=game_master)
    hans, hans_char = make_member(campaign, "hans", "attacker", by=game_master)
    services.campaign_start(campaign=campaign, by=game_master)
    ns = type("Table", (), {})()
    ns.campaign, ns.gm = campaign, game_master
    ns.ivan, ns.ivan_char = ivan, ivan_char
    ns.hans, ns.hans_char = hans, hans_char
    ns.ivan_roster = build_roster(ivan, ivan_char, campaign, name="Рота Громова", lieutenant=True, tank=True)
    ns.hans_roster = build_roster(hans, hans_char, campaign, name="Kampfgruppe Weber", lieutenant=True)
    ns.battle = battle_schedule(user=game_master, campaign=campaign, name="Бой у станции")
    return ns


@pytest.fixture
def started(battle):
    """``battle`` started by the game master (seq 1): before that its participants record nothing (V-TURN-2)."""
    from battles.services import NewEvent, battle_event_append

    battle_event_append(battle_id=battle.id, events=[NewEvent("battle_started", {"attacker": "Вермахт",
                                                                                 "defender": "РККА"})],
                        expected_seq=0, as_game_master=True)
    battle.refresh_from_db()
    return battle
