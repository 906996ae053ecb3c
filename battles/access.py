"""Who a person is at a battle's table: the game master, a participant of one
side, or an onlooker. Decided from the user and the battle's participants
alone, before anything the person sent is looked at (authorization first).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from battles import engine
from campaign.roles import is_game_master
from config.errors import Forbidden

from .log import tail

if TYPE_CHECKING:
    from .log.checks import NewEvent


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
    # The battle's participants as read to decide this role (``tail.participants``), for the same
    # request's names; None when they were not read (the anonymous, the game master).
    seats: tuple[tuple[str, int, int, str, str], ...] | None = field(default=None, compare=False, repr=False)

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


def battle_role(*, battle_id: int, user: Any) -> BattleRole:
    """The user's role at this battle (one query for a player, none for the
    anonymous). The campaign's own game master and any user in the
    game-master role run every battle."""
    if not getattr(user, "is_authenticated", False):
        return ONLOOKER
    if is_game_master(user):
        return BattleRole(is_game_master=True)
    everyone = tuple(tail.participants(battle_id))
    rows = [r for r in everyone if r[2] == user.pk]
    if not rows:
        return BattleRole(seats=everyone)
    side = rows[0][0]
    mine = tuple(r[3] for r in rows if r[3])
    partners = tuple(r[3] for r in everyone if r[0] == side and r[2] != user.pk and r[3])
    return BattleRole(side=side, characters=tuple(r[1] for r in rows), players=mine, partners=partners,
                      seats=everyone)


def refuse_game_master_only(events: Sequence[NewEvent], ruleset: str) -> None:
    """What only the game master records (and any correction), refused to a trusted caller that is not him."""
    for i, ev in enumerate(events):
        entry = engine.ruleset_of(ruleset).registry.get(ev.type)
        if entry is not None and (entry.game_master_only or ev.type == "correction"):
            raise Forbidden(f"events[{i}].type: событие «{entry.title_ru}» может записать только мастер.",
                            f"events[{i}].type: only the game master may record «{entry.title_en}».",
                            field=f"events[{i}].type", code="game_master_only")


def recorder_check(side: str, ruleset: str) -> Callable[[int, str, Any, Any], bool]:
    """A participant of ``side`` records his side's events and those the rules
    hand to him (``engine.actors``); anything else is 403 naming the event and
    who records it."""

    def check(index: int, type_name: str, state: engine.BattleState, payload: Any) -> bool:
        try:
            return engine.authorize(state, type_name, payload, side=side, ruleset=ruleset)
        except engine.NotYours as exc:
            code = "game_master_only" if exc.allowed == "game_master" else "not_your_side"
            raise Forbidden(f"events[{index}]: {exc.message_ru}", f"events[{index}]: {exc.message_en}",
                            field=f"events[{index}].type", code=code,
                            extra={"index": index, "recorded_by": exc.allowed}) from None

    return check
