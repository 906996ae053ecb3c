"""Who may do what. Roles are Django groups so the game master can manage them
in the admin: ``game_master`` (мастер) and ``player``. Anonymous visitors read
public pages only."""
from __future__ import annotations

from typing import Any

GAME_MASTER = "game_master"
PLAYER = "player"


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
