"""The signed-in user of a page or live request is read from his session with his role groups in one query
(``config.authentication.SessionUserBackend``): the same user and the same roles as Django's ``ModelBackend``
reads by two, and a change of his groups or his account counts at the very next request."""
import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaign.roles import GAME_MASTER, PLAYER, is_game_master, is_player
from config.authentication import SessionUserBackend, user_with_groups


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["game_master", "player", "outsider"])
def test_the_user_and_his_roles_are_django_s(request, who):
    user = request.getfixturevalue(who)
    got = user_with_groups(user.pk)
    assert (got.pk, got.username, got.password, got.is_active, got.is_staff, got.is_superuser, got.email) == (
        user.pk, user.username, user.password, True, user.is_staff, False, user.email)
    assert got.is_staff is user.is_staff  # a bool, as the ORM gives it (SQLite stores 0 and 1)
    with CaptureQueriesContext(connection) as ctx:
        roles = (is_game_master(got), is_player(got))
    assert ctx.captured_queries == []  # read with him
    assert roles == ({"game_master": (True, True), "player": (False, True), "outsider": (False, False)}[who])
    assert got.last_login == type(user).objects.get(pk=user.pk).last_login  # the dates when asked for
    assert got.date_joined == user.date_joined


@pytest.mark.django_db
def test_a_user_of_two_groups_is_one_user_with_both(game_master):
    game_master.groups.add(Group.objects.get(name=PLAYER))
    got = user_with_groups(game_master.pk)
    assert got.pk == game_master.pk and is_game_master(got) and is_player(got)


@pytest.mark.django_db
def test_an_unknown_or_inactive_user_is_nobody(player):
    backend = SessionUserBackend()
    assert backend.get_user(player.pk + 1000) is None
    assert backend.get_user(player.pk).pk == player.pk
    type(player).objects.filter(pk=player.pk).update(is_active=False)
    assert backend.get_user(player.pk) is None


@pytest.mark.django_db
def test_a_signed_in_request_reads_its_user_and_groups_in_one_query(game_master):
    client = signed_in(game_master)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/")
    assert response.status_code == 200 and is_game_master(response.wsgi_request.user)
    sql = [q["sql"] for q in ctx.captured_queries]
    users = [s for s in sql if '"auth_user"' in s]
    groups = [s for s in sql if "auth_user_groups" in s]
    assert len(users) == 1 and groups == users, sql  # the groups ride on the user's query


@pytest.mark.django_db
def test_a_game_master_removed_from_his_group_is_a_player_at_the_next_request(game_master):
    client = signed_in(game_master)
    assert client.get("/admin/").status_code == 200
    game_master.groups.remove(Group.objects.get(name=GAME_MASTER))
    game_master.groups.add(Group.objects.get(name=PLAYER))
    type(game_master).objects.filter(pk=game_master.pk).update(is_staff=False)
    assert client.get("/admin/").status_code == 302  # to the login: no longer staff


@pytest.mark.django_db
def test_a_changed_password_signs_the_session_out(player):
    client = signed_in(player)
    assert client.get("/").wsgi_request.user.pk == player.pk
    player.set_password("another-pw-1")
    player.save()
    assert not client.get("/").wsgi_request.user.is_authenticated  # the session's hash no longer matches


@pytest.mark.django_db
def test_the_migration_keeps_the_sessions_signed_in_by_django_s_backend_signed_in(player, outsider):
    """A session Django's ``ModelBackend`` signed in (before the upgrade) is moved to ``SessionUserBackend``,
    so the upgrade signs nobody out; any other session is left as it was, and the migration goes back too."""
    import importlib
    from types import SimpleNamespace

    from django.contrib.auth import BACKEND_SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.db.migrations.loader import MigrationLoader

    migration = importlib.import_module("campaign.migrations.0012_sessions_signed_in_through_session_user_backend")
    before = signed_in(player)
    key = before.cookies["sessionid"].value
    store = SessionStore(session_key=key)
    store[BACKEND_SESSION_KEY] = migration.OLD
    store.save()
    other = SessionStore()
    other.update({"note": "not signed in"})
    other.create()
    assert not before.get("/").wsgi_request.user.is_authenticated  # the old backend is no longer listed
    state = MigrationLoader(connection).project_state(("campaign", "0012_sessions_signed_in_through_session_user_backend"))
    editor = SimpleNamespace(connection=connection)  # (all it asks of the schema editor: the database)
    migration.forwards(state.apps, editor)
    assert before.get("/").wsgi_request.user.pk == player.pk
    assert dict(SessionStore(session_key=other.session_key).load()) == {"note": "not signed in"}
    migration.backwards(state.apps, editor)
    assert SessionStore(session_key=key).load()[BACKEND_SESSION_KEY] == migration.OLD
