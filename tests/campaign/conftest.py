"""Fixtures for campaign tests (the running campaign with players on both sides,
``running`` and ``make_player``, is the whole suite's: tests/conftest.py)."""
import pytest

from campaign.models import Membership, Nationality


@pytest.fixture
def nationality(db):
    return Nationality.objects.get(code="su")


def member(campaign, username) -> Membership:
    return Membership.objects.get(campaign=campaign, player__username=username)
