"""Every write to rosters and game data goes through here. Views, the API and
the admin all call these functions; each checks who may do it.

Players change only their own draft rosters; the game master may change,
lock and unlock any roster. A draft may be invalid or over budget; a
submission for a battle is refused with every violation (V-TURN-1).

This package's names are its interface; the modules split it by job:
``game_data`` (game data rows), ``lifecycle`` (a roster's create, submit,
lock ... and side), ``parts`` (units, fighters, vehicles, FoW teams),
``transfer`` (copy and JSON import), and ``common`` (what they share: who may
edit, the campaign's side, the re-price).
"""
from rosters.services.common import RosterInvalid
from rosters.services.game_data import game_data_row_delete, game_data_row_save, game_data_version_bump
from rosters.services.lifecycle import (
    roster_create,
    roster_delete,
    roster_lock,
    roster_reopen,
    roster_reprice,
    roster_reprice_after_admin_edit,
    roster_share_set,
    roster_submit,
    roster_unlock,
    roster_update,
    rosters_follow_side,
)
from rosters.services.parts import (
    fighter_add,
    fighter_update,
    fow_team_add,
    fow_team_update,
    unit_add,
    unit_move,
    unit_remove,
    unit_rename,
    unit_upgrades_set,
    vehicle_add,
    vehicle_remove,
)
from rosters.services.transfer import roster_duplicate, roster_import

__all__ = [
    "RosterInvalid", "fighter_add", "fighter_update", "fow_team_add", "fow_team_update", "game_data_row_delete",
    "game_data_row_save", "game_data_version_bump", "roster_create", "roster_delete", "roster_duplicate",
    "roster_import", "roster_lock", "roster_reopen", "roster_reprice", "roster_reprice_after_admin_edit",
    "roster_share_set", "roster_submit", "roster_unlock", "roster_update", "rosters_follow_side", "unit_add",
    "unit_move", "unit_remove", "unit_rename", "unit_upgrades_set", "vehicle_add", "vehicle_remove",
]
