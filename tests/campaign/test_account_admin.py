"""Issue 10, authorization: the game master manages the club's game, not its
accounts. He is staff and may change users' names and active flag, but every
admin path that grants privilege or takes an account over is a superuser's:
superuser and staff status, groups, permissions, passwords, a player's login
name and e-mail (a password reset goes to the e-mail: issue 27), other staff
accounts, the role groups, API tokens. Each probe posts what an attacker
would and then proves nothing changed, and that a superuser still can."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission, User


@pytest.fixture
def gm(client, game_master):
    client.force_login(game_master)
    return client


@pytest.fixture
def root(db):
    return User.objects.create_superuser("root", "root@example.com", "pw-root")


@pytest.fixture
def root_client(root):
    from django.test import Client

    c = Client()
    c.force_login(root)
    return c


def _form(user: User, **changes) -> dict:
    """The user change form as the browser posts it, with ``changes`` on top."""
    data = {
        "username": user.username, "first_name": user.first_name, "last_name": user.last_name,
        "email": user.email, "date_joined_0": user.date_joined.strftime("%d.%m.%Y"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
    }
    if user.is_active:
        data["is_active"] = "on"
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


ESCALATION = {"is_superuser": "on", "is_staff": "on"}


def _privileges(user: User):
    user.refresh_from_db()
    return (user.is_superuser, user.is_staff, sorted(user.groups.values_list("name", flat=True)),
            user.user_permissions.count())


def test_game_master_cannot_make_himself_superuser_but_may_edit_his_name(gm, game_master):
    before = _privileges(game_master)
    all_perms = list(Permission.objects.values_list("pk", flat=True)[:20])
    r = gm.post(f"/admin/auth/user/{game_master.pk}/change/",
                _form(game_master, first_name="Сергей", **ESCALATION,
                      groups=[Group.objects.get(name="player").pk], user_permissions=all_perms))
    assert r.status_code == 302, "the form itself is accepted; only the privilege fields are ignored"
    assert _privileges(game_master) == before
    assert game_master.first_name == "Сергей"


def test_game_master_cannot_grant_a_player_staff_superuser_groups_or_permissions(gm, player):
    before = _privileges(player)
    r = gm.post(f"/admin/auth/user/{player.pk}/change/",
                _form(player, last_name="Петров", **ESCALATION, groups=[Group.objects.get(name="game_master").pk],
                      user_permissions=[Permission.objects.get(codename="add_user").pk]))
    assert r.status_code == 302
    assert _privileges(player) == before
    assert player.last_name == "Петров"


def test_game_master_sees_the_privilege_and_account_fields_read_only(gm, player):
    form = gm.get(f"/admin/auth/user/{player.pk}/change/").context["adminform"].form
    assert not {"is_superuser", "is_staff", "groups", "user_permissions", "username", "email"} & set(form.fields)
    assert {"first_name", "last_name", "is_active"} <= set(form.fields)


def test_game_master_cannot_change_a_players_email_or_login_name(gm, player):
    """Issue 27: the e-mail receives the password reset, so changing it is taking the account over."""
    player.email = "ivan@example.com"
    player.save()
    r = gm.post(f"/admin/auth/user/{player.pk}/change/",
                _form(player, email="master@evil.example", username="ivan2", first_name="Иван"))
    assert r.status_code == 302, "the form is accepted; the account fields are ignored"
    player.refresh_from_db()
    assert (player.email, player.username, player.first_name) == ("ivan@example.com", "ivan", "Иван")


def test_game_master_may_change_his_own_email(gm, game_master):
    r = gm.post(f"/admin/auth/user/{game_master.pk}/change/", _form(game_master, email="new-master@example.com"))
    assert r.status_code == 302
    game_master.refresh_from_db()
    assert game_master.email == "new-master@example.com"


def test_superuser_still_changes_a_players_email(root_client, player):
    r = root_client.post(f"/admin/auth/user/{player.pk}/change/", _form(player, email="ivan@new.example"))
    assert r.status_code == 302
    player.refresh_from_db()
    assert player.email == "ivan@new.example"


@pytest.mark.parametrize("whose", ["player", "his own"])
def test_game_master_cannot_set_a_password_through_the_admin(gm, game_master, player, whose):
    target = player if whose == "player" else game_master
    url = f"/admin/auth/user/{target.pk}/password/"
    assert gm.get(url).status_code == 403
    r = gm.post(url, {"password1": "taken-over-1942", "password2": "taken-over-1942", "usable_password": "true"})
    assert r.status_code == 403
    target.refresh_from_db()
    assert target.check_password("pw-" + target.username)


def test_game_master_cannot_edit_or_delete_a_superuser_account(gm, root):
    url = f"/admin/auth/user/{root.pk}/change/"
    r = gm.post(url, _form(root, email="master@evil.example", is_active=None))
    assert r.status_code == 403
    root.refresh_from_db()
    assert root.email == "root@example.com" and root.is_active
    assert gm.post(f"/admin/auth/user/{root.pk}/delete/", {"post": "yes"}).status_code == 403
    assert User.objects.filter(pk=root.pk).exists()


def test_game_master_cannot_delete_a_superuser_through_a_changelist_action(gm, root):
    r = gm.post("/admin/auth/user/", {"action": "delete_selected", "_selected_action": [root.pk], "post": "yes"})
    assert r.status_code in (200, 302, 403)
    assert User.objects.filter(pk=root.pk, is_superuser=True).exists()


def test_game_master_cannot_add_a_superuser(gm):
    r = gm.post("/admin/auth/user/add/", {"username": "mole", "password1": "Zx-1942-long", "password2": "Zx-1942-long",
                                          "usable_password": "true", **ESCALATION})
    assert r.status_code == 403
    assert not User.objects.filter(username="mole").exists()


def test_even_with_add_user_granted_a_new_user_comes_without_privileges(gm, game_master):
    game_master.user_permissions.add(Permission.objects.get(codename="add_user"))
    r = gm.post("/admin/auth/user/add/", {"username": "mole", "password1": "Zx-1942-long", "password2": "Zx-1942-long",
                                          "usable_password": "true", **ESCALATION,
                                          "groups": [Group.objects.get(name="game_master").pk]})
    assert r.status_code == 302
    mole = User.objects.get(username="mole")
    assert _privileges(mole) == (False, False, [], 0)


def test_game_master_cannot_change_add_or_delete_role_groups(gm):
    group = Group.objects.get(name="game_master")
    count = group.permissions.count()
    every = list(Permission.objects.values_list("pk", flat=True))
    assert gm.post(f"/admin/auth/group/{group.pk}/change/", {"name": group.name, "permissions": every}).status_code == 403
    assert gm.post("/admin/auth/group/add/", {"name": "admins", "permissions": every}).status_code == 403
    assert gm.post(f"/admin/auth/group/{group.pk}/delete/", {"post": "yes"}).status_code == 403
    assert group.permissions.count() == count
    assert not Group.objects.filter(name="admins").exists()


def test_permissions_have_no_admin_page(gm, root_client):
    assert gm.get("/admin/auth/permission/").status_code == 404
    assert root_client.get("/admin/auth/permission/").status_code == 404


def test_game_master_cannot_mint_an_api_token_for_the_superuser(gm, root):
    from rest_framework.authtoken.models import Token

    assert gm.post("/admin/authtoken/tokenproxy/add/", {"user": root.pk}).status_code == 403
    assert not Token.objects.filter(user=root).exists()


def test_game_master_still_cannot_mint_a_token_when_a_group_grants_it(gm, game_master, root):
    from rest_framework.authtoken.models import Token

    game_master.user_permissions.add(*Permission.objects.filter(content_type__app_label="authtoken"))
    assert gm.post("/admin/authtoken/tokenproxy/add/", {"user": root.pk}).status_code == 403
    assert not Token.objects.filter(user=root).exists()


def test_superuser_still_grants_privileges_and_sets_passwords(root_client, player):
    gm_group = Group.objects.get(name="game_master")
    r = root_client.post(f"/admin/auth/user/{player.pk}/change/",
                         _form(player, is_staff="on", groups=[gm_group.pk]))
    assert r.status_code == 302
    assert _privileges(player) == (False, True, ["game_master"], 0)
    r = root_client.post(f"/admin/auth/user/{player.pk}/password/",
                         {"password1": "New-pass-1942", "password2": "New-pass-1942", "usable_password": "true"})
    assert r.status_code == 302
    player.refresh_from_db()
    assert player.check_password("New-pass-1942")


def test_superuser_still_edits_the_role_groups(root_client):
    group = Group.objects.get(name="player")
    perm = Permission.objects.get(codename="view_roster")
    r = root_client.post(f"/admin/auth/group/{group.pk}/change/",
                         {"name": group.name, "permissions": [*group.permissions.values_list("pk", flat=True), perm.pk]})
    assert r.status_code == 302
    assert group.permissions.filter(pk=perm.pk).exists()
