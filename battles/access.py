"""Who a person is at a battle's table: the game master, a participant of one
side, or an onlooker. Decided from the user and the battle's participants
alone, before anything the person sent is looked at (authorization first).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaign.roles import is_game_master

from .models import Battle, BattleParticipant


@dataclass(frozen=True)
class BattleRole:
    """``side`` is the side the user fights for in this battle (None for the
    game master and onlookers); ``characters`` are his participants' character
    ids."""

    is_game_master: bool = False
    side: str | None = None
    characters: tuple[int, ...] = field(default_factory=tuple)

    @property
    def is_participant(self) -> bool:
        return self.side is not None

    @property
    def may_record(self) -> bool:
        return self.is_game_master or self.is_participant


ONLOOKER = BattleRole()


def battle_role(*, battle: Battle, user: Any) -> BattleRole:
    """The user's role at this battle (one query for a player, none for the
    anonymous). The campaign's own game master and any user in the
    game-master role run every battle."""
    if not getattr(user, "is_authenticated", False):
        return ONLOOKER
    if is_game_master(user):
        return BattleRole(is_game_master=True)
    rows = list(BattleParticipant.objects.filter(battle_id=battle.pk, character__owner_id=user.pk)
                .values_list("side", "character_id"))
    if not rows:
        return ONLOOKER
    return BattleRole(side=rows[0][0], characters=tuple(c for _, c in rows))
