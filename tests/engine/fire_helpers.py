"""The shots, corrections and smoke rounds the fire behaviour files share (split out of test_fire.py, issue 26)."""
from .table import D, F, at_turn, standard, tank


def rifle(shooter="a1", target="d1", die=3, **kw):
    return dict(shooter=shooter, weapon="rifle", target="fighters", distance=5,
                struck=[{"fighter": target, "die": D(die)}], **kw)


def enemy_moving(rules=None):
    """The attacker's turn, movement phase: tank AT3 has just moved."""
    t = at_turn(rules)
    t.add("vehicle_moved", vehicle="AT3", distance=6)
    return t


def ambush(shooter="DG", weapon="at_gun", target_id="AT3", **kw):
    data = dict(shooter=shooter, weapon=weapon, target="vehicle", target_id=target_id, distance=12, hit=D(3),
                ambush=True, path_distance=1)
    data.update(kw)
    return data


def riders_turn():
    """a1, a2 ride on tank AT3; the attacker's second turn."""
    t = at_turn()
    t.add("embarked", vehicle="AT3", fighters=["a1", "a2"], role="riders")
    t.next_turn()
    t.next_turn(A="recon")
    return t


def aircraft(t, side, vid, kind="ground_attack_aircraft"):
    t.add("force_mustered", side=side, vehicles=[{"id": vid, "kind": "aircraft", "drive": "none", "weapon": kind}])


def vfire(t, shooter, weapon, target, die, distance=5.0, **kw):
    t.fire(shooter, weapon, target="vehicle", target_id=target, distance=distance, hit=D(die), **kw)


def corr(corrector="a_sgt", shooter="AH", target="H", **kw):
    return dict(corrector=corrector, shooter=shooter, target=target, **kw)


def wound(t, fid):
    """Wound ``fid`` (of the side not to move) by a rifle shot of the side to move, within its turn."""
    shooter = {"attacker": "a4", "defender": "d6"}[t.state.side_to_move]
    t.fire(shooter, "rifle", struck=[{"fighter": fid, "die": D(20)}])
    assert t.f(fid).wounded


def pillbox_table(rules=None, *, spotter=True, scout=True):
    t = standard(rules)
    t.add("terrain_placed", **({"spotter_bunkers": ["P"]} if spotter else {"bunkers": ["P"]}))
    tank(t, "defender", "DH", armour=1, gun=4, weapon="howitzer", kind="artillery")
    if scout:
        t.add("force_mustered", side="defender", fighters=[F("d_sc", "D", "scout", bunker="P")])
    t.postures("defender")
    return t


def smoke(shooter="a1", officer="a_sgt", sid="S", dist=5.0):
    return dict(shooter=shooter, officer=officer, officer_distance=dist, smoke=sid)


def shot(shooter, weapon, struck, distance=5.0, **kw):
    return dict(shooter=shooter, weapon=weapon, target="fighters", distance=distance, struck=struck, **kw)


def passengers():
    """a1, a2 embarked on APC AP in the attacker's first turn; the defender's second turn follows."""
    t = at_turn()
    t.add("embarked", vehicle="AP", fighters=["a1", "a2"])
    return t


def into(t, side, fid, **kw):
    t.add("force_mustered", side=side, fighters=[F(fid, "D" if side == "defender" else "A", **kw)])


def vshot(shooter, weapon, target_id, die=11, distance=5.0, **kw):
    return dict(shooter=shooter, weapon=weapon, target="vehicle", target_id=target_id, distance=distance, hit=D(die),
                **kw)
