"""Reads for setting a battle up: its participants by side with names, the
campaign members who could still join with their submitted rosters, and what
was mustered (by name, from the ``force_mustered`` events). Fixed query
counts, whatever the number of participants or fighters."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from battles.models import Battle, BattleEvent, BattleParticipant
from campaign.models import Membership
from rosters.models import Roster, Status

SIDES = ("attacker", "defender")


@dataclass
class MusteredUnit:
    name: str
    fighters: list[str] = field(default_factory=list)


@dataclass
class MusteredVehicle:
    name: str
    crew: list[str] = field(default_factory=list)


@dataclass
class SideSetup:
    side: str
    label: str
    participants: list[BattleParticipant] = field(default_factory=list)
    candidates: list[tuple[Membership, list[Roster]]] = field(default_factory=list)
    units: list[MusteredUnit] = field(default_factory=list)
    vehicles: list[MusteredVehicle] = field(default_factory=list)


@dataclass
class BattleSetup:
    battle: Battle
    sides: list[SideSetup]
    mustered: bool

    @property
    def ready(self) -> bool:
        return not self.mustered and all(any(p.roster_id for p in s.participants) for s in self.sides)


def battle_participants(*, battle: Battle) -> list[BattleParticipant]:
    """The battle's participants with character, player and roster (one query);
    each carries ``side_label``, the campaign's name of his side."""
    rows = list(BattleParticipant.objects.filter(battle_id=battle.pk)
                .select_related("character__owner", "roster").order_by("side", "id"))
    for p in rows:
        p.side_label = battle.campaign.side_name(p.side)
    return rows


def _forces(battle_id: int) -> dict[str, tuple[list[MusteredUnit], list[MusteredVehicle]]]:
    out: dict[str, tuple[list[MusteredUnit], list[MusteredVehicle]]] = {s: ([], []) for s in SIDES}
    for data in (BattleEvent.objects.filter(battle_id=battle_id, type="force_mustered")
                 .order_by("seq").values_list("data", flat=True)):
        units, vehicles = out.get(data.get("side"), ([], []))
        names = {f["id"]: f.get("name") or f["id"] for f in data.get("fighters") or ()}
        by_unit: dict[str, MusteredUnit] = {}
        for p in data.get("platoons") or ():  # a FoW force: platoons of teams
            units.append(MusteredUnit(p.get("name") or p["id"], [t.get("name") or t["id"] for t in p.get("teams") or ()]))
        for u in data.get("units") or ():
            by_unit[u["id"]] = MusteredUnit(u.get("name") or u["id"])
            units.append(by_unit[u["id"]])
        crew = {c for v in data.get("vehicles") or () for c in v.get("crew") or ()}
        loose = MusteredUnit("")
        for f in data.get("fighters") or ():
            if f["id"] in crew:
                continue
            by_unit.get(f.get("unit") or "", loose).fighters.append(names[f["id"]])
        if loose.fighters:
            units.insert(0, loose)
        for v in data.get("vehicles") or ():
            vehicles.append(MusteredVehicle(v.get("name") or v["id"], [names.get(c, c) for c in v.get("crew") or ()]))
    return out


def battle_setup(*, battle: Battle) -> BattleSetup:
    """The setup page: participants, candidates and the mustered forces per
    side (5 queries)."""
    campaign = battle.campaign
    participants = battle_participants(battle=battle)
    taken = {p.character_id for p in participants}
    members = [m for m in Membership.objects.filter(campaign_id=campaign.pk, status=Membership.Status.ACTIVE)
               .exclude(side="").select_related("character", "player").order_by("character__name", "id")
               if m.character_id not in taken]
    rosters: dict[tuple[int, str], list[Roster]] = {}
    for r in (Roster.objects.filter(campaign_id=campaign.pk, status=Status.SUBMITTED,
                                    character_id__in=[m.character_id for m in members])
              .only("id", "name", "character_id", "side", "priced_total").order_by("name", "id")):
        rosters.setdefault((r.character_id, r.side), []).append(r)
    mustered = any(p.mustered_seq for p in participants) or \
        BattleEvent.objects.filter(battle_id=battle.pk, type__in=("force_mustered", "battle_started")).exists()
    forces = _forces(battle.pk) if mustered else {s: ([], []) for s in SIDES}
    sides = []
    for side in SIDES:
        s = SideSetup(side, campaign.side_name(side), [p for p in participants if p.side == side])
        s.candidates = [(m, rosters.get((m.character_id, side), [])) for m in members if m.side == side]
        s.units, s.vehicles = forces[side]
        sides.append(s)
    return BattleSetup(battle, sides, mustered)


def participant_out(p: Any, players: dict[int, str]) -> dict[str, Any]:
    """A participant as the API shows it: ids with the names people read; ``players``
    is campaign.selectors.player_names for the reader (who plays whom is the table's business)."""
    roster = p.roster
    return {
        "id": p.pk, "battle": p.battle_id, "side": p.side, "side_label": getattr(p, "side_label", ""),
        "character": p.character_id, "character_name": p.character.name, "player": players.get(p.character_id),
        "roster": p.roster_id, "roster_name": roster.name if roster is not None else "",
        "mustered_seq": p.mustered_seq, "mustered_total": p.mustered_total,
        "mustered_version": p.mustered_version, "mustered_at": p.mustered_at,
    }
