"""Fixtures of the roster tests: characters and a roster builder on the real models."""
from __future__ import annotations

import pytest


@pytest.fixture
def character(player):
    from campaign.models import Character, Nationality

    return Character.objects.create(owner=player, name="Иван Петров", nationality=Nationality.objects.get(code="su"),
                                    rank="sergeant")


@pytest.fixture
def other_player(db):
    from django.contrib.auth.models import Group, User

    user = User.objects.create_user(username="fritz", password="pw-fritz")
    user.groups.add(Group.objects.get(name="player"))
    return user


@pytest.fixture
def other_character(other_player):
    from campaign.models import Character, Nationality

    return Character.objects.create(owner=other_player, name="Fritz", nationality=Nationality.objects.get(code="de"),
                                    rank="corporal")


def cls(code: str):
    from rosters.models import InfantryClass

    return InfantryClass.objects.get(code=code)


def build_squad(roster, user, *, team1: int = 5, team2: int = 5, parent=None, name: str = "1-е отделение"):
    """A valid squad through the services: sergeant + riflemen, corporal + riflemen."""
    from rosters import services

    unit = services.unit_add(user=user, roster=roster, kind="squad", name=name, parent=parent)
    services.fighter_add(user=user, roster=roster, infantry_class=cls("sergeant"), unit=unit, fire_team=1)
    services.fighter_add(user=user, roster=roster, infantry_class=cls("rifleman"), count=team1 - 1, unit=unit,
                         fire_team=1)
    services.fighter_add(user=user, roster=roster, infantry_class=cls("corporal"), unit=unit, fire_team=2)
    services.fighter_add(user=user, roster=roster, infantry_class=cls("rifleman"), count=team2 - 1, unit=unit,
                         fire_team=2)
    return unit


@pytest.fixture
def roster(player, character):
    from rosters import services

    return services.roster_create(user=player, character=character, name="Отделение Петрова")


@pytest.fixture
def squad_roster(roster, player):
    build_squad(roster, player)
    roster.refresh_from_db()
    return roster


@pytest.fixture
def enlist():
    """Make a character an active member of a campaign on a side (what the
    campaign's joining does), so rosters can be attached to it."""
    from campaign.models import Membership

    def make(campaign, character, side="attacker"):
        return Membership.objects.create(campaign=campaign, player=character.owner, character=character,
                                         side=side, status=Membership.Status.ACTIVE)

    return make
