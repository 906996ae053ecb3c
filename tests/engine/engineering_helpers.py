"""The mines, charges, sappers and vehicles the engineering and vehicle behaviour files share (split out of
test_vehicles_engineering.py, issue 26)."""
from battles.engine.state import Mine

from .table import D, F, attacker_turn, standard, tank


def capture_table():
    t = standard()
    t.postures("defender")
    tank(t, "defender", "X", armour=3, gun=0)
    t.end_turn()
    t.postures("attacker", A="assault")
    tank(t, "attacker", "G", armour=3, gun=3)
    t.fire("G", "gun", target="vehicle", target_id="X", distance=5, hit=D(17))
    assert t.v("X").running_gear
    return t


RING = {"a1": 2.0, "a2": 1.0, "a3": 1.5, "a4": 0.5, "a5": 2.0}


def laid_mine(kind="ap", mine="M1"):
    """The defender's sapper lays a mine with the two-turn scheme; then it is the attacker's turn."""
    t = standard()
    t.postures("defender")
    t.add("sapper_approached", sapper="d_sap", object=mine, distance=4)
    t.next_turn()
    t.next_turn()
    t.add("sapper_worked", sapper="d_sap", action="lay", object=mine, kind=kind)
    t.next_turn(A="recon")
    return t


def mined(kind="ap", mid="M", rules=None, side="defender", laid_by="d_sap"):
    """A live mine of the defender (laid earlier: given) and the attacker's turn open."""
    t = attacker_turn(standard(rules))
    t.state.mines[mid] = Mine(mid, side, kind, laid_by)
    return t


def V(fid, distance=1.0, **kw):  # noqa: N802
    return {"fighter": fid, "distance": distance, **kw}


def approached(sapper="a_sap", obj="W", rules=None):
    """The attacker's sapper stopped at ``obj`` last turn; his next turn is open."""
    t = attacker_turn(standard(rules))
    t.add("sapper_approached", sapper=sapper, object=obj, distance=4)
    assert (t.f(sapper).sapper_object, t.f(sapper).sapper_ply) == (obj, t.state.ply)
    t.next_turn()
    t.next_turn(A="recon")
    return t


def men(t, n, unit="M", side="attacker", prefix="m"):
    names = [f"{prefix}{i}" for i in range(n)]
    t.add("force_mustered", side=side, units=[{"id": unit}], fighters=[F(m, unit) for m in names])
    return names


def car(t, vid="C", seats=0, side="attacker", kind="car", armour=1):
    return tank(t, side, vid, armour=armour, gun=0, kind=kind, seats=seats)


def flamed(t, vid="DT4"):
    """DT4's crew burnt by a flamethrower in this turn (given)."""
    v = t.state.vehicles[vid]
    v.crew_flamed_turn = t.state.turn
    for c in v.crew:
        t.state.fighters[c].dead = True
    return v


def _mine_laid(kind):
    """The defender's sapper d_sap lays a mine (V-SAP-1..3); then it is the attacker's turn."""
    t = standard()
    t.postures("defender")
    t.add("sapper_approached", sapper="d_sap", object="M", distance=4)
    t.next_turn()
    t.next_turn()
    t.add("sapper_worked", sapper="d_sap", action="lay", object="M", kind=kind)
    t.next_turn(A="recon")
    return t
