"""A FoW table for tests: events in, state out, through the engine's append gate."""
from __future__ import annotations

from typing import Any

import pytest

from battles import engine
from tests.engine.table import assert_well_formed


def d(v: int) -> dict[str, Any]:
    return {"value": v, "source": "entered"}


def team(tid: str, kind: str = "infantry", **kw: Any) -> dict[str, Any]:
    return {"id": tid, "kind": kind, **kw}


def force(side: str, *platoons: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return ("force_mustered", {"side": side, "platoons": list(platoons)})


# The platoons a Table musters when none are given: two infantry teams a side, and the attacker's tanks.
INFANTRY_A = {"id": "A1", "kind": "infantry", "teams": [team("a1"), team("a2")]}
INFANTRY_D = {"id": "D1", "kind": "infantry", "teams": [team("d1"), team("d2")]}


class Table:
    def __init__(self, units: str = "in", first: str = "attacker", platoons_a: tuple = (), platoons_d: tuple = ()) -> None:
        self.events: list[engine.Event] = []
        self.state = engine.new_state("fow")
        a = platoons_a or (INFANTRY_A,
                           {"id": "AT", "kind": "tank", "teams": [team("t1", "tank", armoured=True),
                                                                 team("is2", "tank", armoured=True, movement=8 if units == "in" else 20)]})
        dd = platoons_d or (INFANTRY_D,)
        self.add(("battle_started", {"attacker": "Red", "defender": "Blue", "ruleset": "fow", "units": units,
                                     "first_mover": first}),
                 force("attacker", *a), force("defender", *dd))

    def add(self, *items: tuple[str, dict[str, Any]]) -> engine.Event:
        first = self.state.last_seq + 1
        new, self.state = engine.decide_and_apply(
            self.state, [(t, data, None) for t, data in items], first_seq=first, ruleset="fow",
            history=lambda: list(self.events))
        self.events.extend(new)
        return new[-1]

    def refused(self, rule: str, *items: tuple[str, dict[str, Any]]) -> engine.RuleViolation:
        with pytest.raises(engine.RuleViolation) as exc:
            engine.decide(self.state, [(t, data, None) for t, data in items], first_seq=self.state.last_seq + 1,
                          ruleset="fow", history=lambda: list(self.events))
        assert exc.value.rule_id == rule, str(exc.value)
        assert_well_formed(exc.value)
        return exc.value

    def end_turn(self) -> None:
        self.add(("turn_ended", {"side": self.state.side_to_move, "turn": self.state.turn}))

    def t(self, tid: str) -> Any:
        return self.state.teams[tid]
