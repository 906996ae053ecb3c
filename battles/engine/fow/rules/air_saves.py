"""An air attack's saves one at a time (catalog F-AIR, seed 004 p. 191).

``air_attack_resolved`` records every hit with its dice in one event. With
dice rolled at the table one save after another, or rolled by the service on
the owner's request, the hits come first and each save after it:
``air_attack_hit`` records the aircraft and its hits (team, weapon, Anti-tank
and Firepower ratings) with no dice, and Pins Down every platoon hit
(F-AIR-15); ``air_save_rolled`` is the hit team's owner rolling one save (and
the Firepower test where the result table asks for one, F-AIR-6, F-AIR-7,
F-AIR-12), resolved exactly as ``air_attack_resolved`` resolves a hit
(F-AIR-2..14). A team Destroyed by one save takes no further effect from the
attack's other hits on it (F-AIR-1). When the last save is in, the aircraft
leave to re-arm (F-AIR-16); until then the attacking side does not end its
turn (F-AIR-1: every hit team saves).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta

from battles.engine.dice import D6
from battles.engine.events import Context
from battles.engine.fow.registry import OFF_TURN, POLICY, REGISTRY, Recorder, named_side, team_side
from battles.engine.fow.state import AirAttackRecord, Aircraft, AirHitPending, AirHitResult, FowState
from battles.engine.schema import Payload

from .aircraft import AirHit, Weapon, check_hit_team, destroys, resolve_one
from .common import enter_step, refuse, require_own_turn, require_running, require_step
from .core import turn_ended


class AirHitDeclared(Payload):
    """One hit of the air attack, its save still to be rolled."""

    team: Annotated[str, Meta(min_length=1, max_length=60, description="The team hit")]
    weapon: Annotated[Weapon, Meta(description="Bombs or Rockets hit Top armour, Cannon or MGs Side armour")]
    anti_tank: Annotated[int, Meta(
        ge=0, le=30, description="The weapon's Anti-tank rating (needed against armoured vehicles)")] | None = None
    firepower: Annotated[int, Meta(
        ge=1, le=6, description="The weapon's Firepower: the test passes on this or more")] | None = None


class AirAttackHit(Payload):
    """An air attack's hits, their saves to be rolled one at a time (``air_save_rolled``)."""

    side: Annotated[Literal["attacker", "defender"], Meta(description="The side whose aircraft attacked")]
    aircraft: Annotated[str, Meta(min_length=1, max_length=60, description="The aircraft (its name on the table)")]
    hits: Annotated[list[AirHitDeclared], Meta(min_length=1, max_length=60, description="Every hit, one row each")]


air_attack_hit = REGISTRY.event_type("air_attack_hit", AirAttackHit, rules=("F-AIR-1", "F-AIR-15", "F-AIR-16"),
                                     title_ru="Воздушная атака: попадания", title_en="Air attack: hits")
POLICY["air_attack_hit"] = Recorder("actor", named_side, "Сторона, чьи самолёты атаковали",
                                    "The side whose aircraft attacked")


class AirSaveRolled(Payload):
    """The hit team's owner rolls one save against an air attack's hit (and its Firepower test, when due)."""

    aircraft: Annotated[str, Meta(min_length=1, max_length=60, description="The aircraft whose hit this is")]
    team: Annotated[str, Meta(min_length=1, max_length=60, description="The team hit")]
    save: Annotated[D6, Meta(description="The save (armoured vehicles add their Armour rating)")]
    firepower_die: Annotated[D6 | None, Meta(description="The Firepower test, when one is due")] = None


air_save_rolled = REGISTRY.event_type("air_save_rolled", AirSaveRolled, rules=tuple(f"F-AIR-{n}" for n in range(1, 17)),
                                      title_ru="Воздушная атака: спасбросок", title_en="Air attack: one save")
POLICY["air_save_rolled"] = Recorder("actor", team_side("team"), "Владелец отделения, по которому попали",
                                     "The owner of the team hit")
OFF_TURN.add("air_save_rolled")  # the owner saves in the attacking side's turn


def _owed(state: FowState, side: str) -> list[str]:
    return [a.id for a in state.aircraft.values() if a.side == side and a.pending]


@air_attack_hit.check
def _check_hits(state: FowState, p: AirAttackHit, ctx: Context) -> None:
    require_own_turn(state, p.side)
    # G-F1: aircraft attack in their side's Shooting Step (their arrival is a core rule), not after it
    require_step(state, "shooting", "G-F1", "Воздушная атака", "An air attack")
    plane = state.aircraft.get(p.aircraft)
    if plane is not None and plane.side != p.side:
        refuse("S-DUPLICATE", f"Самолёт {p.aircraft!r} — другой стороны.", f"Aircraft {p.aircraft!r} is the other side's.")
    if plane is not None and plane.attack_ply == state.ply:
        refuse("F-AIR-16", "Самолёты после атаки покинули стол и вернулись на базу для перевооружения.",
               "After their attack the aircraft left the table to return to base and re-arm.")
    if _owed(state, p.side):
        refuse("F-AIR-1", "Сначала спасброски за попадания прошлой воздушной атаки.",
               "First the saves for the last air attack's hits.")
    for h in p.hits:
        check_hit_team(state, ctx, p.side, h)


@air_attack_hit.mutator
def _apply_hits(state: FowState, p: AirAttackHit, ctx: Context) -> None:
    enter_step(state, "shooting")  # G-F1: an air attack is of the Shooting Step
    record = AirAttackRecord(seq=ctx.seq, side=p.side, aircraft=p.aircraft, ply=state.ply)
    for h in p.hits:
        pl = state.teams[h.team].platoon
        if pl and pl not in record.pinned:
            record.pinned.append(pl)
            if pl in state.platoons:
                state.platoons[pl].pinned = True  # F-AIR-15: any hit pins, saved or not
    plane = state.aircraft.get(p.aircraft)
    if plane is None:
        plane = state.aircraft[p.aircraft] = Aircraft(id=p.aircraft, side=p.side)
    plane.attack_ply = state.ply  # F-AIR-16: this is its attack of the turn
    plane.where = "attacking"
    plane.pending = [AirHitPending(team=h.team, weapon=h.weapon, anti_tank=h.anti_tank, firepower=h.firepower)
                     for h in p.hits]
    state.air_attacks.append(record)


def hit_of(state: FowState, p: AirSaveRolled) -> AirHit | None:
    """The pending hit this save answers (the first on that team) as a full hit with its dice."""
    plane = state.aircraft.get(p.aircraft)
    h = next((x for x in plane.pending if x.team == p.team), None) if plane is not None else None
    if h is None:
        return None
    return AirHit(team=h.team, weapon=h.weapon, save=p.save, anti_tank=h.anti_tank, firepower=h.firepower,  # type: ignore[arg-type]
                  firepower_die=p.firepower_die)


@air_save_rolled.check
def _check_save(state: FowState, p: AirSaveRolled, ctx: Context) -> None:
    require_running(state)
    h = hit_of(state, p)
    if h is None:
        refuse("F-AIR-1", f"У самолёта {p.aircraft!r} нет попадания по {p.team!r}, ждущего спасброска.",
               f"Aircraft {p.aircraft!r} has no hit on {p.team!r} awaiting its save.")
    destroys(state, ctx, h)  # a Firepower test due without its die is refused (F-AIR-6, F-AIR-7, F-AIR-12)


def _record(state: FowState, aircraft: str) -> AirAttackRecord:
    return next(r for r in reversed(state.air_attacks) if r.aircraft == aircraft)


@air_save_rolled.mutator
def _apply_save(state: FowState, p: AirSaveRolled, ctx: Context) -> None:
    plane = state.aircraft[p.aircraft]
    h: Any = hit_of(state, p)
    plane.pending.remove(next(x for x in plane.pending if x.team == p.team))
    record = _record(state, p.aircraft)
    resolve_one(state, ctx, record, h)
    if state.teams[p.team].destroyed:  # F-AIR-1: its other hits of this attack do nothing more
        for x in [x for x in plane.pending if x.team == p.team]:
            plane.pending.remove(x)
            record.hits.append(AirHitResult(team=x.team, weapon=x.weapon, save=0, outcome="already_destroyed",
                                            rule="F-AIR-1"))
    if not plane.pending:
        plane.attacks += 1
        plane.where = "base"  # F-AIR-16: the last save is in, the aircraft leave to re-arm


@turn_ended.check
def _check_saves_done(state: FowState, p: Any, ctx: Context) -> None:
    owed = _owed(state, p.side)
    if owed:
        refuse("F-AIR-1", f"Спасброски за попадания самолётов {', '.join(owed)} ещё не брошены.",
               f"The saves for the hits of aircraft {', '.join(owed)} are still to be rolled.")


__all__ = ["air_attack_hit", "air_save_rolled", "hit_of"]
