"""What every roster write shares: who may edit a roster, the side a campaign
gives it, and the re-price after each change."""
from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework import status

from campaign.models import Campaign, Character, Membership
from campaign.roles import is_game_master
from config.errors import ApplicationError, Conflict, Forbidden, InvalidInput
from rosters import domain, selectors
from rosters.models import Roster, Side, Status


class RosterInvalid(ApplicationError):
    """422: the roster breaks rules, so it cannot be submitted."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    code = "roster_invalid"


# --- permissions ------------------------------------------------------------------
def _can_edit(user: Any, roster: Roster) -> None:
    if is_game_master(user):
        if roster.status == Status.LOCKED:
            raise Conflict("Состав заблокирован; сначала разблокируйте его.", "The roster is locked; unlock it first.",
                           code="locked")
        return
    if roster.owner_id != getattr(user, "pk", None):
        raise Forbidden("Можно менять только свои составы.", "You may change only your own rosters.")
    if roster.status != Status.DRAFT:
        raise Conflict("Состав уже подан или заблокирован; верните его в черновик.",
                       "The roster is submitted or locked; reopen it as a draft first.", code="not_draft")


def _reprice(roster: Roster) -> domain.Report:
    tree = selectors.roster_tree(roster_id=roster.pk)
    game = selectors.game_data_current()
    report = domain.validate(tree.spec(), game.rules)
    roster.priced_total = report.total
    roster.priced_version = game.version
    roster.updated_at = timezone.now()
    roster.save(update_fields=["priced_total", "priced_version", "updated_at"])
    return report


def _check_side(side: str) -> None:
    if side and side not in Side.values:
        raise InvalidInput("side: неизвестная сторона.", "side: unknown side.", field="side")


def _campaign_side(campaign: Campaign | None, character: Character, side: str) -> str:
    """A roster in a campaign fights for its character's side there (the game
    master assigns it; V-PP-6 reads it for the attacker's +40). The character
    must be an active member of that campaign; a side that is not his is
    refused, never silently replaced. An empty ``side`` takes his."""
    if campaign is None:
        return side
    m = Membership.objects.filter(campaign=campaign, character=character).only("side", "status").first()
    if m is not None and m.status == Membership.Status.REQUESTED:
        raise InvalidInput(f"campaign: заявка персонажа «{character.name}» в эту кампанию ещё не принята мастером; "
                           "состав для неё можно собрать после этого.",
                           f"campaign: the game master has not yet accepted {character.name}'s request to join this "
                           "campaign; build a roster for it once he has.", field="campaign", code="not_accepted")
    if m is None or m.status != Membership.Status.ACTIVE:
        raise InvalidInput("campaign: персонаж не участвует в этой кампании.",
                           "campaign: the character is not a member of this campaign.", field="campaign")
    if side and m.side and side != m.side:
        theirs = campaign.side_name(m.side)
        raise InvalidInput(f"side: в этой кампании «{character.name}» воюет за сторону «{theirs}»; выберите её или "
                           "оставьте поле пустым.",
                           f"side: in this campaign {character.name} fights for '{theirs}'; choose it or leave the "
                           "field empty.", field="side", code="not_his_side")
    return m.side or side
