"""The player's home page reads: his characters, his battles not yet ended,
his rosters with the battle that locks each, his awards. It reads every app,
so it lives in battles, the top of the app layers (.importlinter)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Q, Subquery
from django.db.models.fields.json import KeyTextTransform

from campaign.models import Award, CampaignEvent, Character
from rosters.models import Roster

from .models import BattleParticipant
from .selectors import roster_holders


@dataclass(frozen=True)
class HomeCharacter:
    character: Character
    rank_title: str
    nationality: str


@dataclass(frozen=True)
class HomeBattle:
    """A battle one of the player's characters fights in, not yet ended."""

    battle_id: int
    name: str
    campaign_name: str
    character_name: str
    side_name: str
    running: bool
    turn: int
    his_move: bool
    scheduled_for: Any


@dataclass(frozen=True)
class HomeRoster:
    roster_id: int
    name: str
    status: str
    status_text: str
    campaign_name: str
    side_name: str
    character_name: str
    priced_total: int
    locked_by_id: int | None
    locked_by: str


@dataclass(frozen=True)
class HomeAward:
    name: str
    character_name: str
    campaign_name: str
    battle_id: int | None
    battle_name: str
    recorded_at: Any


@dataclass(frozen=True)
class PlayerHome:
    characters: list[HomeCharacter]
    battles: list[HomeBattle]
    rosters: list[HomeRoster]
    awards: list[HomeAward]

    @property
    def next_battle(self) -> HomeBattle | None:
        return self.battles[0] if self.battles else None

    @property
    def empty(self) -> bool:
        return not (self.characters or self.battles or self.rosters or self.awards)


def _battle_open(prefix: str = "") -> Q:
    """Not ended: never started, or its projection's status is not ``ended``."""
    return ~Q(**{f"{prefix}projection__state__status": "ended"})


def player_home(*, user: Any, language: str = "ru") -> PlayerHome:
    """What a signed-in player's evening starts with: his characters (rank in
    his nation's words), his battles not yet ended (running ones first, then
    by date: the first is his next battle), his rosters with their state and
    the running battle that locks each locked one, and his awards. Names,
    never ids, for everything shown. 5 queries whatever their numbers; none
    for an anonymous visitor."""
    if not getattr(user, "is_authenticated", False):
        return PlayerHome([], [], [], [])
    characters = [HomeCharacter(c, c.rank_title(language), c.nationality.name_ru if language.startswith("ru")
                                else c.nationality.name_en)
                  for c in Character.objects.filter(owner=user).select_related("nationality")]
    rows = (BattleParticipant.objects.filter(_battle_open("battle__"), character__owner=user)
            .annotate(status=KeyTextTransform("status", "battle__projection__state"),
                      turn=KeyTextTransform("turn", "battle__projection__state"),
                      to_move=KeyTextTransform("side_to_move", "battle__projection__state"))
            .values_list("battle_id", "battle__name", "battle__campaign__name", "battle__campaign__attacker_name",
                         "battle__campaign__defender_name", "character__name", "side", "battle__head_seq", "status",
                         "turn", "to_move", "battle__scheduled_for", "battle__number"))
    battles, order = [], {}
    for bid, name, campaign_name, attacker, defender, who, side, head, status, turn, to_move, when, number in rows:
        running = bool(head) and status != "planned"
        battles.append(HomeBattle(bid, name, campaign_name, who, attacker if side == "attacker" else defender,
                                  running, int(turn or 0), running and to_move == side, when))
        order[bid] = (not running, when is None, when or 0, number, bid)
    battles.sort(key=lambda b: order[b.battle_id])
    holder = roster_holders().filter(roster_id=OuterRef("pk"))
    rosters = []
    for r in (Roster.objects.filter(owner=user).select_related("campaign", "character")
              .annotate(locked_by_id=Subquery(holder.values("battle_id")[:1]),
                        locked_by=Subquery(holder.values("battle__name")[:1]))
              .order_by("-updated_at", "-id")):
        locked = r.status == "locked"
        rosters.append(HomeRoster(r.pk, r.name, r.status, str(r.get_status_display()),
                                  r.campaign.name if r.campaign_id else "",
                                  r.campaign.side_name(r.side) if r.campaign_id and r.side else "",
                                  r.character.name, r.priced_total, r.locked_by_id if locked else None,
                                  (r.locked_by or "") if locked else ""))
    events = list(CampaignEvent.objects.filter(character__owner=user, type="award_granted")
                  .select_related("character", "campaign", "battle").order_by("-id"))
    names = Award.objects.in_bulk([e.data["award"] for e in events if e.data.get("award")]) if events else {}
    awards = []
    for e in events:
        award = names.get(e.data.get("award"))
        awards.append(HomeAward(award.name(language) if award else e.data.get("award_code", ""),
                                e.character.name if e.character_id else "",
                                e.campaign.name if e.campaign_id else "", e.battle_id,
                                e.battle.name if e.battle_id else "", e.recorded_at))
    return PlayerHome(characters, battles, rosters, awards)
