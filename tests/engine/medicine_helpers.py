"""The wounded fighters the medicine, melee and prisoner behaviour files share (split out of
test_medicine_melee_prisoners.py, issue 26)."""
from .table import D, attacker_turn, standard


def shoot(t, shooter, target, die, **kw):
    t.fire(shooter, kw.pop("weapon", "rifle"), struck=[{"fighter": target, "die": D(die)}], **kw)


def ready(rules=None):
    return attacker_turn(standard(rules), A="assault", A2="assault")


def roll(a, d):
    return {"attacker": D(a), "defender": D(d)}


def refused(t, a="a1", d="d1", rolls=(), distance=1.0):
    return t.refused("melee", attacker=a, defender=d, distance=distance, rolls=[roll(*x) for x in rolls]).rule_id


def wounded_d1_to_take(rules=None):
    t = attacker_turn(standard(rules))
    t.fire("a2", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    return t


def refused_take(t, captor="a1", prisoner="d1", distance=1.0, **kw):
    return t.refused("prisoner_taken", captor=captor, prisoner=prisoner, distance=distance, **kw).rule_id
