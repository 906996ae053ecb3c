"""From a finished battle to the campaign: results, service records, objectives
changing hands, and award/promotion proposals (V-RANK-4, G-14).

Runs after the battle's projection is complete (status ended, seq == head).
It lives in battles, the app over campaign (.importlinter): it reads the
battle's log and projection and writes the campaign's log.
Everything it appends carries an idempotency key and proposals are unique per
(battle, character, rule), so running it again never duplicates anything.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q

from campaign.models import AwardRule, CampaignEvent, Character, Membership, Metric, Proposal
from campaign.services import campaign_event_append, next_rank
from config.inputs import ascii_int

from .models import Battle, BattleEvent, BattleProjection

HELD = {"dug_in", "carry_on"}


@dataclass(frozen=True)
class Facts:
    """One character's results in one battle, with where they came from."""

    character_id: int
    side: str
    metrics: dict[str, int]

    def as_json(self, battle: Battle, source_seq: int) -> dict[str, Any]:
        return {"battle": battle.pk, "battle_name": battle.name, "side": self.side, "metrics": self.metrics,
                "source_seq": source_seq}


def battle_facts(battle: Battle, state: dict[str, Any], sides: dict[int, str],
                 seated: dict[int, str] | None = None) -> list[Facts]:
    """Read each participating character's metrics from the battle state. ``seated``: the battle's
    participants and their sides (``BattleParticipant``): each is one too when the state names none of his
    figures, as a FoW battle's teams name no character (G-14: he fought, and won or lost with his side)."""
    winner = state.get("winner")
    credits = state.get("characters", {}) or {}
    fighters = state.get("fighters", {}) or {}
    units = state.get("units", {}) or {}
    participants: dict[int, str] = {}
    for key in credits:
        if (cid := ascii_int(str(key))) is not None:
            participants[cid] = sides.get(cid, "")
    own_figure: dict[int, dict[str, Any]] = {}
    held: dict[int, int] = {}
    for f in fighters.values():
        cid = ascii_int(str(f.get("character") or ""))
        if cid is not None:
            participants.setdefault(cid, sides.get(cid, "") or f.get("side", ""))
            if not participants[cid]:
                participants[cid] = f.get("side", "")
            if f.get("rank"):
                own_figure.setdefault(cid, f)
    for cid, side in (seated or {}).items():
        participants.setdefault(cid, sides.get(cid, "") or side)
    for u in units.values():
        commander = fighters.get(u.get("commander", ""), {})
        cid = ascii_int(str(commander.get("character") or ""))
        if cid is not None and u.get("morale") in HELD:
            held[cid] = held.get(cid, 0) + 1
    out = []
    for cid, side in sorted(participants.items()):
        cr = credits.get(str(cid), {}) or {}
        figure = own_figure.get(cid, {})
        metrics = {
            Metric.KILLS: cr.get("kills", 0),
            Metric.CAPTURES: cr.get("prisoners_taken", 0),
            Metric.VEHICLES_DESTROYED: cr.get("vehicles_destroyed", 0),
            Metric.VEHICLES_CAPTURED: cr.get("vehicles_captured", 0),
            Metric.HELD_AFTER_MORALE: held.get(cid, 0),
            Metric.MEDIC_SAVES: cr.get("saves", 0),
            Metric.SURVIVED_WOUNDED: int((cr.get("wounded", 0) > 0 or bool(figure.get("wounded")))
                                         and not cr.get("killed", 0) and not figure.get("dead")),
            Metric.BATTLES_WON: int(bool(side) and winner == side),
            "casualties": cr.get("wounded", 0) + cr.get("killed", 0) + cr.get("captured", 0),
        }
        out.append(Facts(cid, side, {str(k): int(v) for k, v in metrics.items()}))
    return out


def battles_unconcluded() -> list[int]:
    """Ended battles with a complete projection and no battle_result event."""
    recorded = CampaignEvent.objects.filter(battle=OuterRef("pk"), type="battle_result")
    return list(Battle.objects.filter(projection__state__status="ended", projection__seq__gte=F("head_seq"))
                .exclude(Exists(recorded)).order_by("id").values_list("id", flat=True))


def battle_conclude(*, battle_id: int) -> list[Proposal]:
    """Record a finished battle in the campaign and run the award policy."""
    battle = Battle.objects.select_related("campaign").filter(pk=battle_id).first()
    if battle is None:
        return []
    proj = BattleProjection.objects.filter(battle=battle).first()
    if proj is None or proj.state.get("status") != "ended" or proj.seq < battle.head_seq:
        return []  # not finished, or the projection is not complete yet
    campaign = battle.campaign
    state = proj.state
    source = (BattleEvent.objects.filter(battle=battle, type="battle_ended").order_by("-seq").first())
    sides = dict(Membership.objects.filter(campaign=campaign, status=Membership.Status.ACTIVE)
                 .values_list("character_id", "side"))
    facts = battle_facts(battle, state, sides, dict(battle.participants.values_list("character_id", "side")))
    winner = state.get("winner") or "draw"
    with transaction.atomic():
        base = {"battle": battle, "campaign": campaign, "source_event": source}
        campaign_event_append(type="battle_result", data={"winner": winner, "turns": state.get("turn", 0),
                                                          "reason": state.get("end_reason", "")},
                              key=f"battle:{battle.pk}:result", **base)
        taken: dict[str, int] = {}
        if winner in ("attacker", "defender"):
            holders = (campaign.projection.data.get("objectives", {})
                       if hasattr(campaign, "projection") else {})
            for obj in battle.objectives.all():
                old = holders.get(str(obj.pk), {}).get("holder", "")
                if old != winner:
                    campaign_event_append(type="objective_changed",
                                          data={"objective": obj.pk, "name": obj.name, "from": old, "to": winner},
                                          key=f"battle:{battle.pk}:objective:{obj.pk}", **base)
                    taken[winner] = taken.get(winner, 0) + 1
        characters = {c.pk: c for c in Character.objects.filter(pk__in=[f.character_id for f in facts])}
        for f in facts:
            if f.character_id not in characters:
                continue
            f.metrics[Metric.OBJECTIVES_TAKEN] = taken.get(f.side, 0)
            campaign_event_append(type="battle_fought", character=characters[f.character_id],
                                  data={"side": f.side, **f.metrics},
                                  key=f"battle:{battle.pk}:fought:{f.character_id}", **base)
        return award_policy_run(battle=battle, facts=facts, characters=characters,
                                source_seq=source.seq if source else proj.seq)


def award_policy_run(*, battle: Battle, facts: list[Facts], characters: dict[int, Character],
                     source_seq: int) -> list[Proposal]:
    """Evaluate the game master's award rules against each character's facts."""
    campaign = battle.campaign
    rules = list(AwardRule.objects.filter(Q(campaign=campaign) | Q(campaign__isnull=True), active=True)
                 .select_related("award"))
    won: dict[int, int] = {}
    if any(r.metric == Metric.BATTLES_WON for r in rules):
        # campaign total, this battle's battle_fought events included
        for e in CampaignEvent.objects.filter(campaign=campaign, type="battle_fought").values_list(
                "character_id", "data"):
            won[e[0]] = won.get(e[0], 0) + int(e[1].get(Metric.BATTLES_WON, 0))
    created = []
    for f in facts:
        character = characters.get(f.character_id)
        if character is None:
            continue
        for rule in rules:
            value = won.get(f.character_id, 0) if rule.metric == Metric.BATTLES_WON else f.metrics.get(rule.metric, 0)
            if value < rule.threshold:
                continue
            to_rank = ""
            if rule.promotion:
                nxt = next_rank(character.rank)
                if nxt is None:
                    continue  # a captain has nowhere to go
                to_rank = nxt
            p, made = Proposal.objects.get_or_create(
                battle=battle, character=character, rule=rule,
                defaults={"campaign": campaign, "award": rule.award, "to_rank": to_rank,
                          "facts": {**f.as_json(battle, source_seq), "rule": str(rule), "value": value,
                                    "threshold": rule.threshold}},
            )
            if made:
                created.append(p)
    return created


