"""The pre-battle command of each side (ЗВАНИЯ, "Определение командира",
V-RANK-9..12): the players at a battle roll for captain, and the captain
assigns posts and battle ranks. Stored as campaign events of the battle; it
lives in battles, over campaign (.importlinter), because it reads the battle's
participants and rules data.
"""
from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from battles import engine
from battles.log import dice_commit
from battles.models import Battle, BattleParticipant
from battles.selectors import battle_rules
from campaign.models import Campaign, CampaignEvent, CampaignStatus, Character, Membership, Rank
from campaign.roles import is_game_master
from campaign.services import campaign_event_append, refuse_if_archived
from config.errors import Conflict, Forbidden, InvalidInput, RuleRefused


@dataclass(frozen=True)
class CommandState:
    """Where the side's command determination stands for one battle."""

    contenders: list[int]  # characters still rolling (after ties)
    rounds: int
    captain: int | None
    assigned: bool


ENTRIES = ("command_roll", "command_assigned")  # the campaign events that record a battle's command


def entries(battle_id: int) -> int:
    """How many command entries the battle holds (its page's ``data-command``: a live request from a page
    showing the command forms compares it, since an entry here moves no head)."""
    return CampaignEvent.objects.filter(battle_id=battle_id, type__in=ENTRIES).count()


def _command_roll_tie(battle: Any) -> str:
    """G-13: how a tie in the command roll breaks (rules data of the battle)."""
    return {**engine.DEFAULT_RULES, **battle_rules(battle=battle)}["command_roll_tie"]


def _most_senior(characters: list[int]) -> list[int]:
    """The characters of the highest card rank among ``characters`` (G-14 ladder)."""
    ladder = {r: i for i, r in enumerate(Rank.values)}
    ranks = dict(Character.objects.filter(pk__in=characters).values_list("pk", "rank"))
    best = max(ladder[ranks[c]] for c in characters)
    return [c for c in characters if ladder[ranks[c]] == best]


def command_state(*, battle: Any, side: str) -> CommandState:
    events = list(CampaignEvent.objects.filter(battle=battle, type__in=ENTRIES)
                  .filter(data__side=side).order_by("id").values_list("type", "data"))
    contenders: list[int] = []
    captain, rounds, assigned = None, 0, False
    for type_, data in events:
        if type_ == "command_roll":
            rounds += 1
            rolls = {int(k): v["value"] for k, v in data["rolls"].items()}
            top = max(rolls.values())
            winners = sorted(c for c, v in rolls.items() if v == top)
            if len(winners) > 1 and _command_roll_tie(battle) == "senior":  # G-13 set to "senior"
                winners = _most_senior(winners)
            contenders = winners
            captain = winners[0] if len(winners) == 1 else None
        else:
            assigned = True
    return CommandState(contenders, rounds, captain, assigned)


def command_roll(*, battle: Any, side: str, rolls: Mapping[int, Mapping[str, Any] | None], by: Any) -> CommandState:
    """V-RANK-9/10: the players of a side each roll a die; the highest becomes
    captain for this battle. G-13 placeholder: a d20; tied players re-roll
    until the tie breaks. Each die is entered (value) or rolled by the service."""
    campaign = battle.campaign
    refuse_if_archived(campaign)
    if not (is_game_master(by) or _is_side_player(campaign, side, by, battle=battle)):
        raise Forbidden("Бросок за сторону записывает её игрок или мастер.",
                        "Only a player of that side or the game master records its command roll.")
    state = command_state(battle=battle, side=side)
    if state.captain is not None:
        raise RuleRefused("Командир уже определён.", "The commander has already been determined.",
                          rule_id="V-RANK-10")
    members = _side_team(battle, side)
    expected = set(state.contenders) if state.rounds else members
    given = {int(c) for c in rolls}
    if not given or not given <= members:
        raise RuleRefused("Бросают только игроки этой стороны.", "Only the players of this side roll.",
                          rule_id="V-RANK-9")
    if state.rounds and given != expected:
        raise RuleRefused("Переброс: бросают только игроки с равным наибольшим результатом.",
                          "Re-roll: only the players tied for the highest roll roll again.", rule_id="V-RANK-10")
    round_ = state.rounds + 1
    for cid, die in rolls.items():
        if die is not None and not isinstance(die, Mapping):
            raise InvalidInput(f"rolls.{cid}: бросок — объект {{\"source\": \"rolled\"}} или {{\"value\": 1..20, "
                               f"\"source\": \"entered\"}}.", f"rolls.{cid}: a die is an object {{\"source\": "
                               f"\"rolled\"}} or {{\"value\": 1..20, \"source\": \"entered\"}}.", field=f"rolls.{cid}")
        if not (die is None or die.get("source") == "rolled"):
            value = die.get("value")
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 20:
                raise InvalidInput(f"rolls.{cid}.value: от 1 до 20.", f"rolls.{cid}.value: 1 to 20.",
                                   field=f"rolls.{cid}.value")
    with transaction.atomic():
        key = _dice_key(battle)
        dice = {}
        for cid, die in rolls.items():
            if die is None or die.get("source") == "rolled":
                dice[str(cid)] = _service_die(key, battle.pk, side, round_, cid)
            else:  # entered at the table: only its face is kept (a sent ``rng`` is not the service's)
                dice[str(cid)] = {"value": die["value"], "source": "entered"}
        campaign_event_append(type="command_roll", campaign=campaign, battle=battle, recorded_by=by,
                              data={"side": side, "round": round_, "rolls": dice},
                              key=f"battle:{battle.pk}:command:{side}:{round_}")
    return command_state(battle=battle, side=side)


def _dice_key(battle: Any) -> bytes | None:
    """The battle's dice secret while service dice are derived from it
    (``battles.log.dice_commit``): read under the battle row's lock, the lock the
    event store takes to store ``battle_ended`` (which reveals it), so no die
    is derived from a secret already revealed. ``None`` once revealed (or its
    campaign finished), or for a battle without a secret."""
    row = (Battle.objects.select_for_update(of=("self",)).filter(pk=battle.pk)
           .values_list("dice_secret", "dice_revealed_seq", "campaign__status").first())
    if row is None or row[1] is not None or row[2] == CampaignStatus.FINISHED:
        return None
    return dice_commit.key(row[0])


def _service_die(key: bytes | None, battle_id: int, side: str, round_: int, cid: int) -> dict[str, Any]:
    """A command die the service rolls (V-RANK-9, V-RANK-10): derived from the
    battle's committed secret at seq 0, path ``["command_roll", side, round,
    character]`` (``dice_commit.command_path``), re-derived by the verifier
    (``battles.selectors.battle_log_verify``) and by anyone once the secret is
    revealed; without a secret to derive from, drawn from ``secrets``."""
    if key is None:
        return {"value": secrets.randbelow(dice_commit.COMMAND_SIDES) + 1, "source": "rolled",
                "rng": dice_commit.UNCOMMITTED}
    value = dice_commit.command_die(key, battle_id=battle_id, side=side, round=round_, character=cid)
    return {"value": value, "source": "rolled", "rng": dice_commit.RNG}


def command_assign(*, battle: Any, side: str, posts: Mapping[int, Mapping[str, str]], by: Any) -> None:
    """V-RANK-11: the captain assigns every other player of his side a post and
    a battle rank. V-RANK-12: stored per battle; the card rank is unchanged."""
    campaign = battle.campaign
    state = command_state(battle=battle, side=side)
    if state.captain is None:
        raise RuleRefused("Сначала определите командира броском.", "Determine the commander by the roll first.",
                          rule_id="V-RANK-10")
    if state.assigned:
        raise Conflict("Должности на этот бой уже назначены.", "Posts for this battle are already assigned.")
    captain = Character.objects.get(pk=state.captain)
    if not (is_game_master(by) or captain.owner_id == getattr(by, "pk", None)):
        raise Forbidden("Должности назначает командир (или мастер).", "Only the captain (or the game master) assigns posts.")
    others = _side_team(battle, side) - {state.captain}
    given = {int(c) for c in posts}
    if given != others:
        raise RuleRefused("Командир назначает должность каждому другому игроку своей стороны.",
                          "The captain assigns a post to every other player of his side.", rule_id="V-RANK-11")
    clean = {}
    for cid, post in posts.items():
        rank = post.get("rank")
        if rank not in Rank.values or rank == Rank.CAPTAIN:
            raise InvalidInput(f"posts.{cid}.rank: капрал, сержант или лейтенант.",
                               f"posts.{cid}.rank: corporal, sergeant or lieutenant.", field=f"posts.{cid}.rank")
        clean[str(cid)] = {"post": str(post.get("post", ""))[:200], "rank": rank}
    campaign_event_append(type="command_assigned", campaign=campaign, battle=battle, recorded_by=by,
                          data={"side": side, "captain": state.captain, "posts": clean},
                          key=f"battle:{battle.pk}:command:{side}:assigned")


def side_team(*, battle: Any, side: str) -> set[int]:
    """The characters who fight for ``side`` in this battle (V-RANK-9)."""
    return _side_team(battle, side)


def _side_team(battle: Any, side: str) -> set[int]:
    """V-RANK-9: the team of players who fight for one side in this battle:
    its participants once the game master has set them up, otherwise every
    active member of that side (a battle scheduled before participants)."""
    team = set(BattleParticipant.objects.filter(battle=battle, side=side).values_list("character_id", flat=True))
    if team:
        return team
    return set(Membership.objects.filter(campaign=battle.campaign, side=side, status=Membership.Status.ACTIVE)
               .values_list("character_id", flat=True))


def _is_side_player(campaign: Campaign, side: str, user: Any, *, battle: Any = None) -> bool:
    """An active member of ``side``; for a battle with participants, one of
    that side's participants (only the people at the table decide its command)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if battle is not None and battle.participants.exists():
        return battle.participants.filter(side=side, character__owner=user).exists()
    return Membership.objects.filter(campaign=campaign, side=side, player=user,
                                     status=Membership.Status.ACTIVE).exists()
