"""The roster rules' entry points: ``validate`` (price a roster and list every
violation, by its ruleset's rules) and ``officers_missing`` (the commanders the
builder offers to add)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .fow import _FowCheck
from .specs import SQUAD_KINDS, Report, RosterSpec, Rules
from .v11 import _Check


def validate(spec: RosterSpec, rules: Rules) -> Report:
    """Price ``spec`` with ``rules`` and return every violation at once (by
    the roster rules of the campaign's ruleset)."""
    if spec.ruleset == "fow":
        return _FowCheck(spec, rules).run()
    return _Check(spec, rules).run()


@dataclass(frozen=True)
class OfficerNeed:
    """An officer a unit or a crew lacks: the first class of that rank in the
    game data's order, and the fire team he leads (squads only)."""

    cls: str
    rank: str
    fire_team: int | None = None


def officers_missing(spec: RosterSpec, rules: Rules) -> dict[str, list[OfficerNeed]]:
    """The commanders the rules ask of each unit or crew that it does not have
    yet, keyed like violations (a unit ref or ``vehicle:<ref>``), so the
    builder can offer them: a company's captain (V-PLT-3), a platoon's
    lieutenant (V-RANK-7), a squad's sergeant and corporal on different fire
    teams (V-SQUAD-1, V-SQUAD-2), a tactical group's corporal (V-TG-4), and
    the officer of a crew outside a squad (V-MOTOR-6, V-CREW-3). Only what is
    missing: a second officer of a rank is never suggested. None for a FoW
    roster."""
    if spec.ruleset == "fow":
        return {}
    c = _Check(spec, rules)
    first: dict[str, str] = {}
    for code, data in rules.classes.items():
        if data.category == "officer" and data.rank:
            first.setdefault(data.rank, code)
    out: dict[str, list[OfficerNeed]] = defaultdict(list)

    def need(key: str, rank: str, fire_team: int | None = None) -> None:
        if rank in first:
            out[key].append(OfficerNeed(first[rank], rank, fire_team))

    for u in spec.units:
        members = [f for f in c.members.get(u.ref, ()) if c.rank(f)]
        ranks = {c.rank(f) for f in members}
        parent = c.units.get(u.parent) if u.parent is not None else None
        squad_rules = (u.kind == "squad" or (u.kind == "hq_squad" and rules.hq_squad_rules == "squad")
                       or (u.kind == "tactical_group" and parent is not None and parent.kind == "company"
                           and rules.reinforcement_group_rules == "squad"))
        if u.kind == "company" and "captain" not in ranks:
            need(u.ref, "captain")
        elif u.kind == "platoon" and "lieutenant" not in ranks:
            need(u.ref, "lieutenant")
        elif squad_rules:
            team_of = {r: next((f.fire_team or 1 for f in members if c.rank(f) == r), None)
                       for r in ("sergeant", "corporal")}
            if team_of["sergeant"] is None:
                need(u.ref, "sergeant", 3 - team_of["corporal"] if team_of["corporal"] in (1, 2) else 1)
            if team_of["corporal"] is None:
                need(u.ref, "corporal", 3 - team_of["sergeant"] if team_of["sergeant"] in (1, 2) else 2)
        elif u.kind == "tactical_group" and not ranks & {"corporal", "sergeant"}:
            need(u.ref, "corporal")
    for v in spec.vehicles:
        host = c.units.get(v.unit) if v.unit is not None else None
        if host is not None and host.kind in SQUAD_KINDS:
            continue  # V-SQUAD-6: the squad's corporal commands it; no crew is bought
        if not any(c.category(f) == "officer" for f in c.crew.get(v.ref, ())):
            need(f"vehicle:{v.ref}", "corporal")
    return dict(out)
