"""A roster a battle's participant was given is not deleted (issue 27 §3): the API answers 409 and the
roster page an error, both naming the battle, in Russian and English; the admin shows the battle among what
keeps it. Before, the database's protection surfaced as a server error (ProtectedError)."""
from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from battles.models import BattleParticipant
from rosters.models import Roster


@pytest.fixture
def picked(roster, character, battle):
    """The player's draft roster, given to his character at the battle «Бой 1»."""
    BattleParticipant.objects.create(battle=battle, character=character, side="defender", roster=roster)
    return roster


def logged_in(user, api=False):
    client = APIClient() if api else Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["player", "game_master"])
def test_the_api_refuses_to_delete_a_picked_roster_naming_the_battle(picked, request, who):
    r = logged_in(request.getfixturevalue(who), api=True).delete(f"/api/rosters/{picked.pk}/")
    assert r.status_code == 409, r.content
    error = r.json()["error"]
    assert error["code"] == "roster_in_battle"
    assert "«Бой 1»" in error["message_ru"] and "«Бой 1»" in error["message_en"]
    assert Roster.objects.filter(pk=picked.pk).exists()


@pytest.mark.django_db
def test_the_roster_page_refuses_to_delete_a_picked_roster_naming_the_battle(picked, player):
    r = logged_in(player).post(f"/rosters/{picked.pk}/delete/", follow=True)
    assert r.status_code == 200
    assert "«Бой 1»" in r.content.decode()
    assert Roster.objects.filter(pk=picked.pk).exists()


@pytest.mark.django_db
def test_a_roster_no_battle_picked_is_still_deleted(roster, player):
    r = logged_in(player, api=True).delete(f"/api/rosters/{roster.pk}/")
    assert r.status_code == 204
    assert not Roster.objects.filter(pk=roster.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["delete page", "delete action"])
def test_the_admin_keeps_a_picked_roster_naming_the_battle(picked, game_master, how):
    client = logged_in(game_master)
    game_master.is_superuser = True
    game_master.save()
    if how == "delete page":
        r = client.post(f"/admin/rosters/roster/{picked.pk}/delete/", {"post": "yes"})
    else:
        r = client.post("/admin/rosters/roster/", {"action": "delete_selected", "_selected_action": [picked.pk],
                                                   "post": "yes"})
    assert r.status_code == 200, r.status_code
    assert "Бой 1" in r.content.decode()
    assert Roster.objects.filter(pk=picked.pk).exists()
