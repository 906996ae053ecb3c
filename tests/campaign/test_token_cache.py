"""A token's user is kept a few seconds by the process (config.authentication):
a change saved in this process counts at once, and a cached token spares the
query that reads it."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaign.roles import GAME_MASTER


def client_for(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def me(client, battle):
    """A request that needs the user: an append of nothing (400 for a recorder, 403 for anyone else)."""
    return client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": 0, "events": []}, format="json")


@pytest.mark.django_db
def test_a_cached_token_reads_no_token_row(game_master, battle):
    client = client_for(game_master)
    assert me(client, battle).status_code == 400  # the game master: the batch is looked at
    with CaptureQueriesContext(connection) as ctx:
        assert me(client, battle).status_code == 400
    assert not any("authtoken_token" in q["sql"] for q in ctx.captured_queries)


@pytest.mark.django_db
def test_a_deleted_token_is_refused_at_once(game_master, battle):
    client = client_for(game_master)
    assert me(client, battle).status_code == 400
    Token.objects.filter(user=game_master).get().delete()
    assert me(client, battle).status_code == 401


@pytest.mark.django_db
def test_a_deactivated_user_or_one_leaving_the_game_masters_counts_at_once(game_master, battle):
    client = client_for(game_master)
    assert me(client, battle).status_code == 400
    game_master.groups.remove(*game_master.groups.filter(name=GAME_MASTER))
    assert me(client, battle).status_code == 403  # no longer the game master, and no participant
    game_master.is_active = False
    game_master.save()
    assert me(client, battle).status_code == 401


@pytest.mark.django_db
def test_with_the_cache_off_every_request_reads_the_token(game_master, battle, settings):
    settings.SHTAB = {**settings.SHTAB, "TOKEN_CACHE_SECONDS": 0}
    client = client_for(game_master)
    me(client, battle)
    with CaptureQueriesContext(connection) as ctx:
        me(client, battle)
    assert any("authtoken_token" in q["sql"] for q in ctx.captured_queries)
