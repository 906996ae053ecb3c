"""Template context for every page: how many things wait for the game
master (join requests, proposals), shown in the header. Lazy: a callable the
template calls only on a game master's page, once per request."""
from __future__ import annotations

from functools import cache

from .roles import is_game_master
from .selectors import game_master_todo_count


def game_master_todo(request):
    user = getattr(request, "user", None)
    if user is None or not getattr(user, "is_staff", False):
        return {}

    @cache
    def count() -> int:
        if not is_game_master(user):
            return 0

        return game_master_todo_count()

    return {"gm_todo_count": count}
