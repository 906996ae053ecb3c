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
    players: tuple[str, ...] = field(default_factory=tuple)  # his participants' player keys (set at the muster)
    partners: tuple[str, ...] = field(default_factory=tuple)  # the other players of his side

    @property
    def shares_side(self) -> bool:
        """He plays his side with others: he records for his own roster's pieces only."""
        return bool(self.partners)

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
    everyone = list(BattleParticipant.objects.filter(battle_id=battle.pk)
                    .values_list("side", "character_id", "character__owner_id", "player").order_by("id"))
    rows = [r for r in everyone if r[2] == user.pk]
    if not rows:
        return ONLOOKER
    side = rows[0][0]
    mine = tuple(r[3] for r in rows if r[3])
    partners = tuple(r[3] for r in everyone if r[0] == side and r[2] != user.pk and r[3])
    return BattleRole(side=side, characters=tuple(r[1] for r in rows), players=mine, partners=partners)
