"""A roster's life: create, update, share, submit, reopen, lock, unlock, delete,
re-price, and following its character to another side."""
from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from campaign.models import Campaign, Character
from campaign.roles import is_game_master
from config.errors import Conflict, Forbidden, InvalidInput
from rosters import domain, selectors
from rosters.models import Roster, Status

from .common import RosterInvalid, _campaign_side, _can_edit, _check_side, _reprice


@transaction.atomic
def roster_create(*, user: Any, character: Character, name: str, campaign: Campaign | None = None,
                  side: str = "") -> Roster:
    if character.owner_id != user.pk and not is_game_master(user):
        raise Forbidden("Состав можно создать только для своего персонажа.",
                        "You may create a roster only for your own character.", field="character")
    _check_side(side)
    side = _campaign_side(campaign, character, side)
    roster = Roster.objects.create(owner=character.owner, character=character, name=name, campaign=campaign,
                                   side=side)
    _reprice(roster)
    return roster


@transaction.atomic
def roster_update(*, user: Any, roster: Roster, name: str | None = None, campaign: Campaign | None | str = "keep",
                  side: str | None = None, air_support_cards: int | None = None) -> Roster:
    _can_edit(user, roster)
    if name is not None:
        roster.name = name
    if air_support_cards is not None:  # V-FORM-2, G-8: bought as a card; the limit is checked on pricing
        if isinstance(air_support_cards, bool) or not isinstance(air_support_cards, int) or air_support_cards < 0:
            raise InvalidInput("air_support_cards: целое число от 0.", "air_support_cards: a whole number from 0.",
                               field="air_support_cards")
        roster.air_support_cards = air_support_cards
    if campaign != "keep":
        roster.campaign = campaign  # type: ignore[assignment]
    if side is not None:
        _check_side(side)
    roster.side = _campaign_side(roster.campaign, roster.character, roster.side if side is None else side)
    roster.save()
    _reprice(roster)
    return roster


@transaction.atomic
def roster_share_set(*, user: Any, roster: Roster, on: bool) -> Roster:
    """The owner (or the game master) turns the read-only share link on (a new
    unguessable token each time) or off (the link stops working at once)."""
    if roster.owner_id != getattr(user, "pk", None) and not is_game_master(user):
        raise Forbidden("Делиться можно только своим составом.", "You may share only your own roster.")
    roster.share_token = secrets.token_urlsafe(24) if on else ""
    roster.save(update_fields=["share_token"])
    return roster


@transaction.atomic
def roster_delete(*, user: Any, roster: Roster) -> None:
    """Delete a roster its owner (or the game master) may still change. One a battle's
    participant was given (``BattleParticipant.roster`` protects it) is refused, naming the battle."""
    _can_edit(user, roster)
    try:
        roster.delete()
    except ProtectedError:  # nothing was deleted: the protected rows are found before any is
        names = ", ".join(f"«{n}»" for n in selectors.roster_battle_names(rosters=[roster]))
        raise Conflict(f"Состав выбран для боя {names}: сначала уберите его из участников боя.",
                       f"The roster is picked for the battle {names}: take it off the battle's participants first.",
                       code="roster_in_battle") from None


@transaction.atomic
def roster_reprice(*, user: Any, roster: Roster) -> domain.Report:
    """Price the roster with the current game data (an explicit act, never silent)."""
    _can_edit(user, roster)
    return _reprice(roster)


@transaction.atomic
def roster_reprice_after_admin_edit(*, roster: Roster) -> domain.Report:
    """The master edited a roster's parts in the admin: price it again."""
    return _reprice(roster)


@transaction.atomic
def roster_submit(*, user: Any, roster: Roster) -> domain.Report:
    """Submit for a battle; refused with every violation (V-TURN-1)."""
    _can_edit(user, roster)
    roster = Roster.objects.select_for_update().get(pk=roster.pk)
    report = _reprice(roster)
    if not report.ok:
        raise RosterInvalid(
            f"Состав нельзя подать: нарушений — {len(report.errors)}.",
            f"The roster cannot be submitted: {len(report.errors)} violation(s).",
            rule_id=report.errors[0].rule_id,
            extra={"violations": [v.as_dict() for v in report.violations], "total": report.total,
                   "budget": report.budget})
    roster.status = Status.SUBMITTED
    roster.submitted_at = timezone.now()
    roster.save(update_fields=["status", "submitted_at"])
    return report


@transaction.atomic
def roster_reopen(*, user: Any, roster: Roster) -> Roster:
    """A submitted roster goes back to draft (its owner or the master); a locked
    one only by the master (``roster_unlock``)."""
    if roster.status == Status.LOCKED:
        raise Conflict("Состав заблокирован мастером.", "The game master has locked the roster.", code="locked")
    if roster.owner_id != getattr(user, "pk", None) and not is_game_master(user):
        raise Forbidden("Можно менять только свои составы.", "You may change only your own rosters.")
    roster.status = Status.DRAFT
    roster.submitted_at = None
    roster.save(update_fields=["status", "submitted_at"])
    return roster


def _require_master(user: Any) -> None:
    if not is_game_master(user):
        raise Forbidden("Только мастер может это сделать.", "Only the game master may do this.")


@transaction.atomic
def roster_lock(*, user: Any, roster: Roster) -> Roster:
    _require_master(user)
    roster.status = Status.LOCKED
    roster.save(update_fields=["status"])
    return roster


@transaction.atomic
def roster_unlock(*, user: Any, roster: Roster) -> Roster:
    _require_master(user)
    roster.status = Status.DRAFT
    roster.save(update_fields=["status"])
    return roster


def rosters_follow_side(*, campaign: Campaign, character: Character, side: str) -> int:
    """The game master moved a character to a side: his unsubmitted rosters in
    that campaign follow (and are re-priced, V-PP-6)."""
    changed = 0
    for roster in Roster.objects.filter(campaign=campaign, character=character, status=Status.DRAFT):
        if roster.side != side:
            roster.side = side
            roster.save(update_fields=["side"])
            _reprice(roster)
            changed += 1
    return changed
