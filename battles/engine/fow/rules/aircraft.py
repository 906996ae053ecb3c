"""Saves against aircraft hits (seed 004, rulebook p. 191; catalog F-AIR).

The seed's page starts in the middle of the air-attack sequence: how the
aircraft arrive and roll to hit is not in the seeds (G-F1). An air attack is
recorded once it has hit, as ``air_attack_resolved``: the aircraft, and for
every hit the team, the weapon, its Anti-tank and Firepower ratings, the save
die and (when a test is due) the Firepower test's die, entered from the table
or rolled by the service (d6, G-F4). The engine works out each outcome:

- every hit team saves (F-AIR-1); Bombs and Rockets hit Top armour (F-AIR-2),
  Cannon and Machine-guns Side armour (F-AIR-3);
- an armoured vehicle's owner adds the die to that Armour rating and compares
  the total with the Anti-tank rating (F-AIR-4): higher, no effect (F-AIR-5);
  equal, a passed Firepower test Bails it Out, a failed one does nothing
  (F-AIR-6); lower, a passed test Destroys it, a failed one Bails it Out
  (F-AIR-7);
- an unarmoured vehicle saves on 5+ (F-AIR-8), on 3+ if it is a Warrior,
  Independent or Reconnaissance team (F-AIR-9, reading: unarmoured vehicles
  only; F-RECON-2 says the same for recon vehicles);
- an Infantry team saves on 3+ (F-AIR-10); a Gun team on 5+, or 3+ if it has
  Gone to Ground (F-AIR-11); an Infantry or Gun team in Bulletproof Cover that
  fails its save is Destroyed only if a Firepower test is passed (F-AIR-12);
  any other team that fails its save is Destroyed;
- a Destroyed armoured vehicle becomes Wreckage and stays on the table
  (F-AIR-13); every other Destroyed team is removed (F-AIR-14);
- every platoon with at least one hit, saved or not, is Pinned Down (F-AIR-15);
- then the aircraft leave the table to re-arm (F-AIR-16): the same aircraft
  cannot attack again in that turn (reading; when they come back is G-F1).

A hit on a team an earlier hit of the same attack already Destroyed has no
further effect; a Bailed Out vehicle Bailed Out again stays Bailed Out (G-F1).
A Firepower die given where no test is due (a service roll asked in advance)
is kept in the record, marked unused.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta

from battles.engine.dice import D6, value
from battles.engine.events import Context
from battles.engine.fow.registry import POLICY, REGISTRY, Recorder, named_side
from battles.engine.fow.state import AirAttackRecord, Aircraft, AirHitResult, FowState, Team, TestRecord
from battles.engine.schema import Payload

from .common import enter_step, passes, refuse, require_own_turn, require_step, team

Weapon = Literal["bombs", "rockets", "cannon", "mg"]
VEHICLE_KINDS = ("tank", "vehicle", "train")


def armour_facing(ctx: Context, weapon: str) -> str:
    """``top`` for Bombs and Rockets (F-AIR-2), ``side`` for Cannon and MGs (F-AIR-3)."""
    return str(ctx.rules["air_armour_facing"][weapon])


def is_armoured_vehicle(t: Team) -> bool:
    return t.armoured and t.kind in VEHICLE_KINDS


def armour_rating(t: Team, facing: str) -> int | None:
    return t.armour_top if facing == "top" else t.armour_side


def save_min(ctx: Context, t: Team) -> tuple[int, str]:
    """The save of a team that is not an armoured vehicle: (N of ``N+``, rule ID)."""
    saves = ctx.rules["air_save"]
    if t.kind in VEHICLE_KINDS:
        if t.warrior or t.independent or t.recon:
            return int(saves["unarmoured_special"]), "F-AIR-9"
        return int(saves["unarmoured"]), "F-AIR-8"
    if t.kind == "gun":
        if t.gone_to_ground:
            return int(saves["gun_gone_to_ground"]), "F-AIR-11"
        return int(saves["gun"]), "F-AIR-11"
    return int(saves["infantry"]), "F-AIR-10"


# --- air_attack_resolved --------------------------------------------------------------------
class AirHit(Payload):
    """One hit of the air attack on one team, with its dice."""

    team: Annotated[str, Meta(min_length=1, max_length=60, description="The team hit")]
    weapon: Annotated[Weapon, Meta(description="Bombs or Rockets hit Top armour, Cannon or MGs Side armour")]
    save: Annotated[D6, Meta(description="The hit team's owner's save (armoured vehicles add their Armour rating)")]
    anti_tank: Annotated[int, Meta(
        ge=0, le=30, description="The weapon's Anti-tank rating (needed against armoured vehicles)")] | None = None
    firepower: Annotated[int, Meta(
        ge=1, le=6, description="The weapon's Firepower: the test passes on this or more")] | None = None
    firepower_die: Annotated[D6 | None, Meta(description="The Firepower test, when one is due")] = None


class AirAttackResolved(Payload):
    """An air attack's hits and their saves: the saving throws, Firepower
    tests, wrecks, Pinned Down platoons, and the aircraft leaving (p. 191)."""

    side: Annotated[Literal["attacker", "defender"], Meta(description="The side whose aircraft attacked")]
    aircraft: Annotated[str, Meta(min_length=1, max_length=60, description="The aircraft (its name on the table)")]
    hits: Annotated[list[AirHit], Meta(
        max_length=60, description="Every hit, one row each")] = []


air_attack_resolved = REGISTRY.event_type("air_attack_resolved", AirAttackResolved,
                                          rules=tuple(f"F-AIR-{n}" for n in range(1, 17)),
                                          title_ru="Воздушная атака: спасброски", title_en="Air attack: saves")
POLICY["air_attack_resolved"] = Recorder("actor", named_side, "Сторона, чьи самолёты атаковали",
                                         "The side whose aircraft attacked")


def firepower_min(ctx: Context, h: AirHit) -> int:
    return int(h.firepower if h.firepower is not None else ctx.rules["firepower_test_min"])


def resolve_hit(ctx: Context, t: Team, h: AirHit) -> tuple[str, str, int | None, str | None]:
    """(what is due, rule, armour total, facing): due is ``none`` (saved or no effect), ``destroy``,
    or a Firepower test: ``fp_bail`` (F-AIR-6), ``fp_destroy`` (F-AIR-7), ``fp_cover`` (F-AIR-12)."""
    s = value(h.save)
    if is_armoured_vehicle(t):
        facing = armour_facing(ctx, h.weapon)
        total = s + int(armour_rating(t, facing) or 0)
        at = int(h.anti_tank or 0)
        if total > at:
            return "none", "F-AIR-5", total, facing
        if total == at:
            return "fp_bail", "F-AIR-6", total, facing
        return "fp_destroy", "F-AIR-7", total, facing
    need, rule = save_min(ctx, t)
    if passes(h.save, need):
        return "none", rule, None, None
    if t.kind in ("infantry", "gun") and t.bulletproof_cover:
        return "fp_cover", "F-AIR-12", None, None
    return "destroy", rule, None, None


@air_attack_resolved.check
def _check_air(state: FowState, p: AirAttackResolved, ctx: Context) -> None:
    require_own_turn(state, p.side)  # aircraft attack in their side's turn (the arrival rules are G-F1)
    # G-F1: aircraft attack in their side's Shooting Step (their arrival is a core rule), not after it
    require_step(state, "shooting", "G-F1", "Воздушная атака", "An air attack")
    plane = state.aircraft.get(p.aircraft)
    if plane is not None and plane.side != p.side:
        refuse("S-DUPLICATE", f"Самолёт {p.aircraft!r} — другой стороны.", f"Aircraft {p.aircraft!r} is the other side's.")
    if plane is not None and plane.attack_ply == state.ply:
        refuse("F-AIR-16", "Самолёты после атаки покинули стол и вернулись на базу для перевооружения.",
               "After their attack the aircraft left the table to return to base and re-arm.")
    for h in p.hits:
        check_hit_team(state, ctx, p.side, h)
    dead: set[str] = set()
    for h in p.hits:  # the Firepower test is needed only where the result table asks for it
        if h.team in dead:
            continue
        if destroys(state, ctx, h):
            dead.add(h.team)


def destroys(state: FowState, ctx: Context, h: AirHit) -> bool:
    """Refuses a hit that needs a Firepower test without its die; True when the hit destroys the team."""
    due, rule, _total, _facing = resolve_hit(ctx, state.teams[h.team], h)
    if due.startswith("fp_") and h.firepower_die is None:
        refuse(rule, f"Для отделения {h.team!r} нужен тест на Огневую Мощь.",
               f"Team {h.team!r} needs a Firepower test.")
    return due == "destroy" or (due in ("fp_destroy", "fp_cover") and passes(h.firepower_die, firepower_min(ctx, h)))


def check_hit_team(state: FowState, ctx: Context, side: str, h: Any) -> None:
    """A hit is on a live enemy team; on an armoured vehicle, with the facing's Armour and the Anti-tank rating."""
    t = team(state, h.team)
    if t.side == side or t.destroyed:
        refuse("S-TARGET", f"Отделение {t.id!r} — не живое вражеское отделение.",
               f"Team {t.id!r} is not a live enemy team.")
    if is_armoured_vehicle(t):
        facing = armour_facing(ctx, h.weapon)
        if armour_rating(t, facing) is None:
            rule = "F-AIR-2" if facing == "top" else "F-AIR-3"
            word_ru, word_en = ("Верхней", "Top") if facing == "top" else ("Боковой", "Side")
            refuse(rule, f"У отделения {t.id!r} не указана {word_ru} броня.",
                   f"Team {t.id!r} has no {word_en} armour rating.")
        if h.anti_tank is None:
            refuse("F-AIR-4", "Против бронетехники нужна Бронебойность оружия.",
                   "A hit on an armoured vehicle needs the weapon's Anti-tank rating.")


def _destroy(t: Team) -> None:
    t.destroyed = True
    if is_armoured_vehicle(t):
        t.wreck = True  # F-AIR-13: stays on the table as Wreckage
    else:
        t.removed = True  # F-AIR-14


@air_attack_resolved.mutator
def _apply_air(state: FowState, p: AirAttackResolved, ctx: Context) -> None:
    enter_step(state, "shooting")  # G-F1: an air attack is of the Shooting Step
    record = AirAttackRecord(seq=ctx.seq, side=p.side, aircraft=p.aircraft, ply=state.ply)
    pinned: list[str] = []
    for h in p.hits:
        t = state.teams[h.team]
        if t.platoon and t.platoon not in pinned:
            pinned.append(t.platoon)  # F-AIR-15: any hit pins, saved or not
        resolve_one(state, ctx, record, h)
    for pid in pinned:
        if pid in state.platoons:
            state.platoons[pid].pinned = True
    record.pinned = pinned
    plane = state.aircraft.get(p.aircraft)
    if plane is None:
        plane = state.aircraft[p.aircraft] = Aircraft(id=p.aircraft, side=p.side)
    plane.attack_ply = state.ply
    plane.attacks += 1
    plane.where = "base"  # F-AIR-16: the show is over, the aircraft leave the table
    state.air_attacks.append(record)


def resolve_one(state: FowState, ctx: Context, record: AirAttackRecord, h: AirHit) -> None:
    """One hit's save and Firepower test, its outcome on the team, added to the attack's record."""
    t = state.teams[h.team]
    fp_roll = value(h.firepower_die) if h.firepower_die is not None else None
    if t.destroyed:
        record.hits.append(AirHitResult(team=t.id, weapon=h.weapon, save=value(h.save), firepower_die=fp_roll,
                                        outcome="already_destroyed", rule="F-AIR-1"))
        return
    due, rule, total, facing = resolve_hit(ctx, t, h)
    outcome = "saved" if due == "none" else due
    fp_used = False
    if due == "destroy":
        outcome = "destroyed"
    elif due.startswith("fp_"):
        fp_used = True
        passed = passes(h.firepower_die, firepower_min(ctx, h))
        state.tests.append(TestRecord(kind="firepower", seq=ctx.seq, subject=t.id, purpose="air_attack",
                                      rolls=[value(h.firepower_die)], passed=passed))
        if due == "fp_bail":
            outcome = "bailed_out" if passed else "no_effect"  # F-AIR-6
        elif due == "fp_destroy":
            outcome = "destroyed" if passed else "bailed_out"  # F-AIR-7
        else:
            outcome = "destroyed" if passed else "saved"  # F-AIR-12
    elif is_armoured_vehicle(t):
        outcome = "no_effect"  # F-AIR-5
    if outcome == "destroyed":
        _destroy(t)
    elif outcome == "bailed_out":
        t.bailed_out = True
    record.hits.append(AirHitResult(team=t.id, weapon=h.weapon, save=value(h.save), facing=facing or "",
                                    total=total, firepower_die=fp_roll, firepower_used=fp_used, outcome=outcome,
                                    rule=rule))


__all__ = ["AirAttackResolved", "AirHit", "Weapon", "air_attack_resolved", "armour_facing", "armour_rating", "check_hit_team",
           "destroys", "firepower_min", "is_armoured_vehicle", "resolve_hit", "resolve_one", "save_min"]
