"""What a Flames of War event's dice needed, and the fates the shared reader
does not see, for the log's outcomes (``battles.engine.effects``).

The shared reader compares team statuses and Pinned Down platoons before and
after each event. This module adds, for ``FowState``:

* ``rolls``: every Skill test, save and Firepower test of the event with the
  lowest face that passes, from the same helpers the rules use
  (``common.skill_min``, ``recon.vehicle_save``, ``aircraft.save_min`` and
  ``resolve_hit``), judged on the state before the event; entries have the
  shared shape ``{"kind": "roll", "test", "value", "need", "passed", "id"}``.
  A shot's to-hit dice have no threshold in the seeds (G-F1): the table
  decides them, and the log's sentence says so.
* ``snapshot``/``diff``: an armoured train that left the table (F-TRAIN-22).

A roll never raises: an event whose pieces a later correction voided reads
as having no dice rather than being marked unapplied.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from battles.engine import effects
from battles.engine.dice import value
from battles.engine.events import Context

from .rules.air_saves import hit_of
from .rules.aircraft import armour_facing, armour_rating, firepower_min, is_armoured_vehicle, resolve_hit, save_min
from .rules.common import skill_min
from .rules.recon import vehicle_save
from .state import FowState

Effects = list[dict[str, Any]]


def _roll(test: str, die: Any, need: int, oid: str) -> dict[str, Any]:
    v = value(die)
    return {"kind": "roll", "test": test, "value": v, "need": need, "passed": v >= need, "id": oid}


def _skill(state: FowState, ctx: Context, platoon: str) -> int:
    pl = state.platoons.get(platoon)
    return skill_min(ctx, pl) if pl is not None else int(ctx.rules["skill_test_min"])


def _air(state: FowState, p: Any, ctx: Context) -> Effects:  # also a single save (``air_save_rolled``)
    """F-AIR-1..12: each hit's save (an armoured vehicle's die needs Armour + die > Anti-tank,
    F-AIR-4), then its Firepower test where the result table asks for one."""
    out: Effects = []
    dead: set[str] = set()
    for h in p.hits:
        t = state.teams.get(h.team)
        if t is None or t.destroyed or h.team in dead:
            continue  # F-AIR-1: a hit on a team already Destroyed does nothing more
        due, _rule, _total, _facing = resolve_hit(ctx, t, h)
        if is_armoured_vehicle(t):
            rating = armour_rating(t, armour_facing(ctx, h.weapon)) or 0
            need = max(1, int(h.anti_tank or 0) - int(rating) + 1)  # F-AIR-4, F-AIR-5
        else:
            need = save_min(ctx, t)[0]  # F-AIR-8..11
        out.append(_roll("save", h.save, need, t.id))
        if due.startswith("fp_") and h.firepower_die is not None:
            fp = _roll("firepower", h.firepower_die, firepower_min(ctx, h), t.id)  # F-AIR-6, F-AIR-7, F-AIR-12
            out.append(fp)
            if due in ("fp_destroy", "fp_cover") and fp["passed"]:
                dead.add(t.id)
        elif due == "destroy":
            dead.add(t.id)
    return out


def rolls(state: FowState, type_name: str, p: Any, rules: dict[str, Any]) -> Effects:
    """The dice of a FoW event with what each needed, judged on the state before it."""
    ctx = Context(0, rules)
    out: Effects = []
    try:
        if type_name == "dig_in_attempted":  # F-DIG-3, F-DIG-10
            need = _skill(state, ctx, p.platoon)
            out.append(_roll("skill", p.die, need, p.platoon))
            if p.reroll is not None:
                out.append(_roll("skill_reroll", p.reroll, need, p.platoon))
        elif type_name == "dig_in_rerolled":  # F-DIG-10
            out.append(_roll("skill_reroll", p.die, _skill(state, ctx, p.platoon), p.platoon))
        elif type_name == "building_move" and p.die is not None:  # F-BLD-8
            t = state.teams.get(p.team)
            if t is not None:
                out.append(_roll("skill", p.die, _skill(state, ctx, t.platoon), t.id))
        elif type_name == "disengaged":  # F-RECON-18
            out.append(_roll("skill", p.die, _skill(state, ctx, p.platoon), p.platoon))
        elif type_name == "unarmoured_save_rolled":  # F-RECON-2
            t = state.teams.get(p.team)
            if t is not None:
                out.append(_roll("save", p.die, vehicle_save(t, ctx.rules)[0], t.id))
        elif type_name == "air_attack_resolved":
            out = _air(state, p, ctx)
        elif type_name == "air_save_rolled":  # F-AIR-1: one save, as its hit of air_attack_hit asks
            h = hit_of(state, p)
            out = _air(state, SimpleNamespace(hits=[h]), ctx) if h is not None else []
    except (KeyError, TypeError, ValueError):
        return []  # the rules data or the pieces are not what the event needs: no dice told, nothing else changed
    return out


def snapshot(state: FowState) -> dict[str, Any]:
    return {k: tr.where for k, tr in state.trains.items()}


def diff(was: dict[str, Any], now: dict[str, Any]) -> Effects:
    """F-TRAIN-22: a train that went off the table has left it for good."""
    return [{"kind": "train_left", "id": k} for k, where in now.items() if where == "left" and was.get(k) != "left"]


effects.EXTENSIONS[FowState] = effects.Extension(rolls, snapshot, diff)

__all__ = ["diff", "rolls", "snapshot"]
