"""Fixtures for campaign tests: a running campaign with players on both sides."""
import pytest

from campaign import services
from campaign.models import Membership, Nationality


@pytest.fixture
def nationality(db):
    return Nationality.objects.get(code="su")


@pytest.fixture
def make_player(db):
    from django.contrib.auth.models import Group, User

    def make(username, rank="corporal"):
        user = User.objects.create_user(username=username, password="pw-" + username)
        user.groups.add(Group.objects.get(name="player"))
        character = services.character_create(owner=user, name=f"{username.title()}", rank=rank,
                                              nationality=Nationality.objects.get(code="su"))
        return user, character

    return make


@pytest.fixture
def running(campaign, game_master, make_player):
    """A running campaign: two attackers (sergeant, corporal), two defenders."""
    cast = {}
    for username, rank, side in [("petrov", "sergeant", "attacker"), ("sidorov", "corporal", "attacker"),
                                 ("hans", "lieutenant", "defender"), ("fritz", "corporal", "defender")]:
        user, character = make_player(username, rank)
        m = services.membership_request(campaign=campaign, character=character)
        services.membership_assign_side(membership=m, side=side, by=game_master)
        cast[username] = (user, character)
    services.campaign_start(campaign=campaign, by=game_master)
    campaign.cast = cast
    return campaign


def member(campaign, username) -> Membership:
    return Membership.objects.get(campaign=campaign, player__username=username)
