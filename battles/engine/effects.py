"""What each event did: its outcome, read from the state change it caused.

The log's sentences say what a player recorded; this module says what came of
it, so that a shot reads «попадание, ранен» and a wound test «поправился» and
nobody compares state tables to find out. ``fold(..., effects=out)`` calls
``before`` ahead of each applied event and ``after`` once it is applied, and
keeps ``out[seq]``: a list of plain, JSON-ready dicts, in a fixed order, so a
rebuild gives the same list.

Two kinds of entry:

* ``{"kind": "roll", "test": ..., "value": d, "need": n, "passed": bool, "id": ...}``:
  a die and the lowest face that passes, from the same rule helpers the
  mutators use (``rules.fire.hit_need``, ``g2_need``; V-TEST-1, G-2).
  ``need`` is absent where the die has bands rather than a threshold (morale).
* ``{"kind": <fate>, "id": ..., ...}``: a fate that changed, found by comparing
  a snapshot of every fighter, vehicle, unit, house, pillbox and mine (v11.2),
  or team and platoon (Flames of War), before and after the event. A fate
  is whatever a reader asks after a shot: wounded, killed, captured, freed,
  recovered, vehicle damage and destruction, morale results, FoW statuses.

Pure: no Django, no I/O; the worker keeps the result beside the projection.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from .dice import value
from .rules.fire import AT_INFANTRY, GUNS, g2_need, hit_need

Effects = list[dict[str, Any]]


@dataclass(frozen=True)
class Extension:
    """A ruleset's own readers, by its state class (Flames of War registers
    ``battles.engine.fow.effects``): its dice with what they needed, judged
    before the event, and the fates the shared snapshot does not cover."""

    rolls: Callable[[Any, str, Any, dict[str, Any]], Effects]
    snapshot: Callable[[Any], Any]
    diff: Callable[[Any, Any], Effects]


EXTENSIONS: dict[type, Extension] = {}

_FIGHTER = ("wounded", "dead", "captured")
_VEHICLE = ("damage", "running_gear", "destroyed", "captured", "driven_off", "side")
_TEAM = ("bailed_out", "destroyed", "bogged", "gone_to_ground", "dug_in")
_FIGHTER_OF, _VEHICLE_OF, _TEAM_OF = attrgetter(*_FIGHTER), attrgetter(*_VEHICLE), attrgetter(*_TEAM)


def _snapshot(state: Any) -> dict[str, dict[str, tuple[Any, ...]]]:
    if hasattr(state, "teams"):  # Flames of War
        return {
            "team": {k: _TEAM_OF(t) for k, t in state.teams.items()},
            "platoon": {k: (p.pinned,) for k, p in state.platoons.items()},
        }
    return {
        "fighter": {k: _FIGHTER_OF(f) for k, f in state.fighters.items()},
        "vehicle": {k: _VEHICLE_OF(v) for k, v in state.vehicles.items()},
        "unit": {k: (u.morale,) for k, u in state.units.items()},
        "building": {k: (b.damage,) for k, b in state.buildings.items()},
        "bunker": {k: (b.hits,) for k, b in state.bunkers.items()},
        "mine": {k: (m.active, m.revealed) for k, m in state.mines.items()},
    }


def _fighter(fid: str, was: tuple[Any, ...], now: tuple[Any, ...]) -> Effects:
    (w0, d0, c0), (w1, d1, c1) = was, now
    out: Effects = []
    if d1 and not d0:
        out.append({"kind": "killed", "id": fid})
    elif w1 and not w0:
        out.append({"kind": "wounded", "id": fid})
    elif w0 and not w1 and not d1:
        out.append({"kind": "recovered", "id": fid})
    if c1 and not c0:
        out.append({"kind": "captured", "id": fid})
    elif c0 and not c1:
        out.append({"kind": "freed", "id": fid})
    return out


def _vehicle(vid: str, was: tuple[Any, ...], now: tuple[Any, ...]) -> Effects:
    d0, g0, x0, c0, o0, s0 = was
    d1, g1, x1, c1, o1, s1 = now
    out: Effects = []
    if x1 and not x0:
        out.append({"kind": "vehicle_destroyed", "id": vid})
    elif d1 > d0:
        out.append({"kind": "vehicle_damaged", "id": vid, "damage": d1})
    if g1 and not g0 and not x1:
        out.append({"kind": "running_gear", "id": vid})
    if (c1 and not c0) or (s1 != s0 and not x1):
        out.append({"kind": "vehicle_captured", "id": vid, "side": s1})
    if o1 and not o0:
        out.append({"kind": "driven_off", "id": vid})
    return out


def _diff(was: dict[str, dict[str, tuple[Any, ...]]], now: dict[str, dict[str, tuple[Any, ...]]]) -> Effects:
    out: Effects = []
    for what, items in now.items():
        old = was.get(what, {})
        if old == items:  # (most events change no fate: one comparison a kind, in C)
            continue
        for oid, cur in items.items():
            prev = old.get(oid)
            if prev is None or prev == cur:
                continue  # a newcomer (mustered, laid) is not an outcome
            if what == "fighter":
                out += _fighter(oid, prev, cur)
            elif what == "vehicle":
                out += _vehicle(oid, prev, cur)
            elif what == "unit" and cur[0]:
                out.append({"kind": "morale", "id": oid, "result": cur[0]})
            elif what == "building" and cur[0] > prev[0]:
                out.append({"kind": "house_damaged", "id": oid, "damage": cur[0]})
            elif what == "bunker" and cur[0] > prev[0]:
                out.append({"kind": "bunker_hit", "id": oid, "hits": cur[0]})
            elif what == "mine":
                if prev[0] and not cur[0]:
                    out.append({"kind": "mine_gone", "id": oid})
                if cur[1] and not prev[1]:
                    out.append({"kind": "mine_revealed", "id": oid})
            elif what == "team":
                out += [{"kind": a if now_v else f"not_{a}", "id": oid}
                        for a, was_v, now_v in zip(_TEAM, prev, cur, strict=True) if was_v != now_v
                        and (now_v or a in ("bailed_out", "gone_to_ground", "dug_in", "bogged"))]
            elif what == "platoon":
                out.append({"kind": "pinned" if cur[0] else "not_pinned", "id": oid})
    return out


def _roll(test: str, die: Any, need: int | None, **extra: Any) -> dict[str, Any]:
    v = value(die)
    out: dict[str, Any] = {"kind": "roll", "test": test, "value": v}
    if need is not None:
        out["need"] = need
        out["passed"] = v >= need
    out.update(extra)
    return out


def _rolls(state: Any, type_name: str, p: Any, rules: dict[str, Any]) -> Effects:
    """The dice of a v11.2 event with what each needed, judged on the state before it."""
    out: Effects = []
    if type_name == "fire":
        if p.spot is not None:
            out.append(_roll("spot", p.spot, rules["test_success_min"]))  # V-TEST-1
        need = hit_need(state, p, rules)
        if need is not None:
            out.append(_roll("hit", p.hit, need, id=p.target_id))
        direct = p.weapon in GUNS or p.weapon in AT_INFANTRY
        if p.target == "fighters" and not direct and p.weapon != "grenade":
            for s in p.struck:
                t = state.fighters.get(s.fighter)
                if s.die is not None and t is not None and not t.dead:
                    out.append(_roll("g2", s.die, g2_need(state, p.shooter, t, s, rules), id=s.fighter))
    elif type_name == "wound_test":
        out.append(_roll("wound_test", p.die, rules["test_success_min"], id=p.fighter))  # V-MED-3
        if p.reroll is not None:
            out.append(_roll("wound_reroll", p.reroll, rules["test_success_min"], id=p.fighter))  # V-MED-4
    elif type_name == "morale_test":
        out.append(_roll("morale", p.die, None, id=p.unit))  # V-TEST-3..6: bands, told by the result
    elif type_name == "capture_attempted":
        out.append(_roll("capture", p.die, rules["test_success_min"], id=p.vehicle))  # V-CAPT-5
    return out


class Recorder:
    """Collects ``effects[seq]`` during a fold (see the module's docstring)."""

    def __init__(self, out: dict[int, Effects]) -> None:
        self.out = out
        self._rolls: Effects = []
        self._was: dict[str, dict[str, tuple[Any, ...]]] = {}
        self._ext: Extension | None = None
        self._was_ext: Any = None
        # The state and its snapshots as the last event left it: the next event's "before", when nothing ran
        # between (an event the fold could not apply, whose mutator may have begun, takes them anew).
        self._kept: tuple[Any, Any, Any] | None = None

    def before(self, state: Any, type_name: str, payload: Any, rules: dict[str, Any]) -> None:
        self._ext = ext = EXTENSIONS.get(type(state))
        kept, self._kept = self._kept, None
        if kept is None or kept[0] is not state:
            kept = (state, _snapshot(state), ext.snapshot(state) if ext is not None else None)
        self._was, self._was_ext = kept[1], kept[2]
        if ext is not None:
            self._rolls = ext.rolls(state, type_name, payload, rules)
        else:
            self._rolls = [] if hasattr(state, "teams") else _rolls(state, type_name, payload, rules)

    def after(self, seq: int, state: Any) -> None:
        now, now_ext = _snapshot(state), self._ext.snapshot(state) if self._ext is not None else None
        found = self._rolls + _diff(self._was, now)
        if self._ext is not None:
            found += self._ext.diff(self._was_ext, now_ext)
        self._kept = (state, now, now_ext)
        if found:
            self.out[seq] = found
