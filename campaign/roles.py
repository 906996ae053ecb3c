"""Who may do what. Roles are Django groups, ``game_master`` (мастер) and
``player``, edited in the admin by a superuser only: the game master may view
and change users, but never their privileges, passwords or groups
(campaign.admin_accounts). Anonymous visitors read public pages only."""
from __future__ import annotations

from typing import Any

GAME_MASTER = "game_master"
PLAYER = "player"

# The game master administers every Shtab app; players record battle events
# and read. Roster permissions are added by the rosters app's own needs.
GAME_MASTER_APPS = ("campaign", "battles", "rosters")
GAME_MASTER_AUTH_PERMS = ("view_user", "change_user", "view_group")
PLAYER_PERMS = (("battles", "add_battleevent"), ("battles", "view_battleevent"), ("battles", "view_battle"),
                ("campaign", "view_campaign"))


def ensure_roles(Group, Permission) -> None:  # noqa: N803 - model classes, historical or real
    """Create the role groups with their permissions (idempotent)."""
    gm, _ = Group.objects.get_or_create(name=GAME_MASTER)
    gm.permissions.add(*Permission.objects.filter(content_type__app_label__in=GAME_MASTER_APPS))
    gm.permissions.add(*Permission.objects.filter(content_type__app_label="auth",
                                                  codename__in=GAME_MASTER_AUTH_PERMS))
    player, _ = Group.objects.get_or_create(name=PLAYER)
    for app_label, codename in PLAYER_PERMS:
        player.permissions.add(*Permission.objects.filter(content_type__app_label=app_label, codename=codename))


def known_groups(user: Any, names: set[str]) -> None:
    """Hand ``user`` his group names, read with him (``config.authentication.SessionUserBackend``), so the
    role checks below ask the database nothing more."""
    user._shtab_groups = names


def is_game_master(user: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    cache = getattr(user, "_shtab_groups", None)
    if cache is None:
        cache = user._shtab_groups = set(user.groups.values_list("name", flat=True))
    return GAME_MASTER in cache


def is_player(user: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if is_game_master(user):
        return True
    return PLAYER in user._shtab_groups
