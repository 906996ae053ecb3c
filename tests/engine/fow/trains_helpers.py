"""The armoured-train table and its events (laying the line, entering, moving) the train behaviour files and
the shared-action tests use (split out of test_trains.py, issue 26)."""
from __future__ import annotations

from .table import Table, team

BRONE = {"id": "BP", "kind": "armoured_train", "escorts": ["TS"],
         "teams": [team("loco", "train", armoured=True, locomotive=True), team("w1", "train", armoured=True),
                   team("w2", "train", armoured=True)]}


ESCORT = {"id": "TS", "kind": "tank", "teams": [team("ts1", "tank", armoured=True), team("ts2", "tank", armoured=True)]}


RIFLES = {"id": "A1", "kind": "infantry", "teams": [team("a1"), team("a2")]}


D_TRAIN = {"id": "DBP", "kind": "armoured_train",
           "teams": [team("dloco", "train", armoured=True, locomotive=True), team("dw1", "train", armoured=True)]}


D_TANKS = {"id": "DT", "kind": "tank", "teams": [team("dt1", "tank", armoured=True)]}


def table(units: str = "in", *, defender_train: bool = False, reserve: bool = False) -> Table:
    brone = {**BRONE, "reserve": reserve}
    dd = (D_TRAIN, D_TANKS, {"id": "D1", "kind": "infantry", "teams": [team("d1")]}) if defender_train else (
        D_TANKS, {"id": "D1", "kind": "infantry", "teams": [team("d1")]})
    return Table(units=units, platoons_a=(brone, ESCORT, RIFLES), platoons_d=dd)


def edges(side: str = "attacker", pair: str = "east_west") -> tuple[str, dict]:
    return ("railway_edges_chosen", {"side": side, "edges": pair})


def point(side: str, edge: str, pos: float = 20) -> tuple[str, dict]:
    return ("railway_point_chosen", {"side": side, "edge": edge, "position": pos})


def laid(side: str = "attacker", **kw) -> tuple[str, dict]:
    return ("railway_line_laid", {"side": side, **kw})


def lay(tb: Table, side: str = "attacker", length: float = 48, **kw) -> None:
    foe = "defender" if side == "attacker" else "attacker"
    tb.add(edges(side), point(foe, "west"), point(side, "east"), laid(side, length=length, **kw))


def enter(dist: float, length: float = 10, train: str = "BP", **kw) -> tuple[str, dict]:
    return ("train_entered", {"train": train, "distance": dist, "train_length": length, **kw})


def move(dist: float, direction: str = "forward", **kw) -> tuple[str, dict]:
    return ("train_moved", {"train": "BP", "distance": dist, "direction": direction, **kw})


def next_own_turn(tb: Table) -> None:
    tb.end_turn()
    tb.end_turn()


def on_table(units: str = "in", line: float = 48, at: float = 10) -> Table:
    tb = table(units)
    lay(tb, length=line)
    tb.add(enter(at, 10))
    next_own_turn(tb)
    return tb


def leave(pid: str = "TS", dist: float = 1) -> tuple[str, dict]:
    return ("escort_left_train", {"platoon": pid, "distance": dist})


def d1() -> dict:
    return {"value": 4, "source": "entered"}
