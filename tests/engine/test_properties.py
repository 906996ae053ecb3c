"""Property tests (hypothesis) over random battles built through the append
gate: determinism, fold of the whole == fold of its parts (with corrections),
the dead never act, and fighters are conserved."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles.engine import BattleState, RuleViolation, census, decide, dump, fold, load, requires_rebuild, voided_by

from .table import D, standard

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def actor_of(type_: str, data: dict) -> str | None:
    for key in ("shooter", "attacker", "captor", "officer", "sapper"):
        if key in data and type_ != "charge_detonated":
            return data[key]
    if type_ == "fighters_moved":
        return data["fighters"][0]
    return None


def candidate(draw, t) -> tuple[str, dict]:
    s = t.state
    fighters = sorted(s.fighters)
    side = s.side_to_move
    own = [f for f in fighters if s.fighters[f].side == side]
    foe = [f for f in fighters if s.fighters[f].side != side]
    kind = draw(st.sampled_from(["fire", "fire", "mg", "melee", "move", "wound", "end", "prisoner", "morale",
                                 "gun", "correction", "postures", "smoke", "embark", "disembark", "vmove", "house",
                                 "order"]))
    die = D(draw(st.integers(1, 20)))
    if kind == "fire":
        return "fire", dict(shooter=draw(st.sampled_from(own)), weapon="rifle", target="fighters",
                            distance=draw(st.sampled_from([3.0, 8.0, 9.0])),
                            struck=[{"fighter": draw(st.sampled_from(foe)), "die": die}])
    if kind == "mg":
        shooter = "a_lmg" if side == "attacker" else "DAA"
        return "fire", dict(shooter=shooter, weapon="lmg" if side == "attacker" else "aa_autocannon",
                            target="fighters", distance=6.0,
                            struck=[{"fighter": f, "die": D(draw(st.integers(1, 20)))}
                                    for f in draw(st.lists(st.sampled_from(foe), min_size=1, max_size=3, unique=True))])
    if kind == "melee":
        return "melee", dict(attacker=draw(st.sampled_from(own)), defender=draw(st.sampled_from(foe)), distance=1.0,
                             rolls=[{"attacker": die, "defender": D(draw(st.integers(1, 20)))}])
    if kind == "move":
        return "fighters_moved", dict(side=side, fighters=[draw(st.sampled_from(own))], distance=0.0)
    if kind == "wound":
        return "wound_test", dict(fighter=draw(st.sampled_from(own)), die=die)
    if kind == "end":
        return "turn_ended", dict(side=side, turn=s.turn)
    if kind == "prisoner":
        return "prisoner_taken", dict(captor=draw(st.sampled_from(own)), prisoner=draw(st.sampled_from(foe)),
                                      distance=0.5)
    if kind == "morale":
        unit = draw(st.sampled_from(sorted(s.units)))
        return "morale_test", dict(unit=unit, die=die, officer_distances={},
                                   enemy_distances={f: 5.0 for f in fighters})
    if kind == "gun":
        shooter, target = ("AT3", "DT4") if side == "attacker" else ("DT4", "AT3")
        return "fire", dict(shooter=shooter, weapon="gun", target="vehicle", target_id=target, distance=10.0, hit=die)
    if kind == "smoke":
        return "smoke_fired", dict(shooter=draw(st.sampled_from(own)), officer=draw(st.sampled_from(own)),
                                   officer_distance=draw(st.sampled_from([6.0, 12.0, 13.0])),
                                   smoke=f"s{s.last_seq}")
    if kind == "embark":
        return "embarked", dict(vehicle=draw(st.sampled_from(["AP", "AT3", "DT4"])),
                                fighters=draw(st.lists(st.sampled_from(own), min_size=1, max_size=3, unique=True)),
                                role=draw(st.sampled_from(["passengers", "riders"])))
    if kind == "disembark":
        carried = [f for f in own if s.fighters[f].aboard and s.fighters[f].aboard_as != "crew"]
        if carried:
            f = draw(st.sampled_from(carried))
            return "disembarked", dict(vehicle=s.fighters[f].aboard, fighters=[f], distance=1.0)
    if kind == "vmove":
        return "vehicle_moved", dict(vehicle=draw(st.sampled_from(["AP", "AT3", "DT4", "DG"])), distance=4.0)
    if kind == "house":
        shooter = "AH" if side == "attacker" else "DM"
        return "fire", dict(shooter=shooter, weapon="howitzer" if side == "attacker" else "mortar", target="house",
                            target_id="H", distance=20.0, hit=die)
    if kind == "order":
        return "order_given", dict(officer=draw(st.sampled_from(own)), unit=draw(st.sampled_from(sorted(s.units))),
                                   distance=draw(st.sampled_from([5.0, 12.0, 30.0])))
    floor = getattr(t, "floor", 5)  # events below the floor are the set-up a test relies on: never voided
    if kind == "correction" and s.last_seq >= floor:
        return "correction", dict(voids_seq=draw(st.integers(floor, s.last_seq)), reason="property test")
    return "postures_declared", dict(side=side, units={u: draw(st.sampled_from(["recon", "assault", "dug_in"]))
                                                       for u in sorted(s.units) if s.units[u].side == side})


def build(data_draw, steps: int, t=None):
    t = t or standard()
    mustered = len(t.state.fighters)
    for _ in range(steps):
        type_, payload = candidate(data_draw, t)
        before = t.state
        actor = actor_of(type_, payload)
        try:
            t.add(type_, **payload)
        except RuleViolation:
            continue
        # the dead never act: an accepted event's actor was alive and free beforehand
        if actor is not None and actor in before.fighters:
            a = before.fighters[actor]
            assert not a.dead and not a.captured, f"{type_} by {actor} accepted although dead/captured"
        c = census(t.state)
        assert sum(c.values()) == mustered == len(t.state.fighters)
    return t


@SETTINGS
@given(st.data())
def test_fold_is_deterministic_and_matches_the_append_gate(data):
    t = build(data.draw, data.draw(st.integers(5, 40)))
    a, b = fold(t.events), fold(t.events)
    assert dump(a) == dump(b)
    assert load(BattleState, json.loads(json.dumps(dump(a)))) == a  # the projection round-trips exactly
    if not voided_by(t.events):
        assert dump(a) == dump(t.state)
        assert not a.unapplied, "without corrections every accepted event applies"


@SETTINGS
@given(st.data())
def test_fold_of_the_whole_equals_fold_of_its_parts(data):
    t = build(data.draw, data.draw(st.integers(5, 40)))
    events = t.events
    whole = fold(events)
    cuts = sorted(data.draw(st.lists(st.integers(1, max(1, len(events) - 1)), max_size=4, unique=True)))
    skip = voided_by(events)  # as the service passes every voided seq of the log
    state = None
    start = 0
    for cut in [*cuts, len(events)]:
        part = events[start:cut]
        if not part:
            continue
        if state is not None and requires_rebuild(state, part):
            state = fold(events[:cut], None, skip=skip)
        else:
            state = fold(part, state, skip=skip)
        start = cut
    assert dump(state) == dump(whole)


# who dies first, and who shoots them: two rifle hits in one turn kill (V-MED-1)
ATTACKER_VICTIMS = ["a1", "a2", "a3", "a_med", "a_sap", "a_snp", "a_cpt"]
ATTACKER_SHOOTERS = ["a5", "a6", "a_cpl", "a_sgt"]
DEFENDER_VICTIMS = ["d1", "d2", "d3", "d_med", "d_sap", "d_snp", "d_lt"]
DEFENDER_SHOOTERS = ["d4", "d5", "d6", "d_sgt"]


def with_the_dead(draw):
    """The standard table after a turn each in which some fighters of both
    sides (riflemen, specialists, an officer) were shot dead; the events that
    killed them are below the table's floor, so no later correction revives them."""
    t = standard()
    slain = {"attacker": draw(st.lists(st.sampled_from(ATTACKER_VICTIMS), min_size=1, max_size=2, unique=True)),
             "defender": draw(st.lists(st.sampled_from(DEFENDER_VICTIMS), min_size=1, max_size=2, unique=True))}
    t.postures("defender")  # the defender moves first (V-TURN-8) and shoots the attacker's victims
    shooters = iter(DEFENDER_SHOOTERS)
    for victim in slain["attacker"]:
        for shooter in (next(shooters), next(shooters)):
            t.fire(shooter, "rifle", distance=3.0, struck=[{"fighter": victim, "die": D(20)}])
    t.next_turn()
    shooters = iter(ATTACKER_SHOOTERS)
    for victim in slain["defender"]:
        for shooter in (next(shooters), next(shooters)):
            t.fire(shooter, "rifle", distance=3.0, struck=[{"fighter": victim, "die": D(20)}])
    for fid in (*slain["attacker"], *slain["defender"]):
        assert t.state.fighters[fid].dead, f"{fid} survived two hits in one turn (V-MED-1)"
    t.floor = t.state.last_seq + 1
    return t, slain


@SETTINGS
@given(st.data())
def test_the_dead_never_act(data):
    """A dead fighter's every act is refused citing S-DEAD (the actor's own
    status is checked before turn order and targets), whichever side is to move,
    after any random battle that follows his death."""
    t, slain = with_the_dead(data.draw)
    t = build(data.draw, data.draw(st.integers(0, 30)), t)
    dead = sorted(f for f, x in t.state.fighters.items() if x.dead)
    assert set(slain["attacker"]) | set(slain["defender"]) <= set(dead)
    for fid in dead:
        f = t.state.fighters[fid]
        foe = next(x for x, y in sorted(t.state.fighters.items()) if y.side != f.side and not y.dead)
        unit = next(u for u in sorted(t.state.units) if t.state.units[u].side == f.side)
        for type_, payload in (
            ("fire", dict(shooter=fid, weapon="rifle", target="fighters", distance=3.0,
                          struck=[{"fighter": foe, "die": D(20)}])),
            ("melee", dict(attacker=fid, defender=foe, distance=0.5, rolls=[{"attacker": D(20), "defender": D(1)}])),
            ("fighters_moved", dict(side=f.side, fighters=[fid], distance=0.0)),
            ("prisoner_taken", dict(captor=fid, prisoner=foe, distance=0.5)),
            ("order_given", dict(officer=fid, unit=unit, distance=5.0)),
            ("smoke_fired", dict(shooter=fid, officer=fid, officer_distance=1.0, smoke="s-dead")),
        ):
            try:
                decide(t.state, [(type_, payload, None)], first_seq=t.state.last_seq + 1)
            except RuleViolation as exc:
                assert exc.rule_id == "S-DEAD", f"{type_} by dead {fid} refused as {exc.rule_id}, not S-DEAD"
            else:
                raise AssertionError(f"dead fighter {fid} was allowed {type_}")


@SETTINGS
@given(st.data())
def test_fighters_are_conserved_alive_wounded_dead_captured_equals_mustered(data):
    t = build(data.draw, data.draw(st.integers(5, 40)))
    for side in ("attacker", "defender"):
        c = census(t.state, side)
        assert sum(c.values()) == sum(1 for f in t.state.fighters.values() if f.side == side)
    replay = fold(t.events)
    assert sum(census(replay).values()) == len(replay.fighters)


@SETTINGS
@given(st.data())
def test_checks_never_change_the_state(data):
    """Only mutators change state: running every check of a candidate leaves the state as it was."""
    from battles.engine import lookup
    from battles.engine.events import Context
    from battles.engine.fold import merge_rules

    t = build(data.draw, data.draw(st.integers(3, 20)))
    for _ in range(10):
        type_, payload = candidate(data.draw, t)
        entry = lookup(type_)
        before = dump(t.state)
        try:
            for check in entry.checks:
                check(t.state, entry.parse(payload), Context(t.state.last_seq + 1, merge_rules(None)))
        except RuleViolation:
            pass
        assert dump(t.state) == before, f"a check of {type_} changed the state"


@settings(max_examples=50, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(1, 20)), min_size=1, max_size=6), st.integers(1, 20))
def test_fill_rolls_fills_every_rolled_die_and_keeps_every_entered_one(entered, rolled_value):
    from battles.engine import fill_rolls, lookup

    struck = [{"fighter": f"d{i}", "die": {"source": "rolled"} if v is None else {"value": v, "source": "entered"}}
              for i, v in enumerate(entered)]
    data = {"shooter": "a_lmg", "weapon": "lmg", "target": "fighters", "distance": 5, "struck": struck}
    out = fill_rolls("fire", data, lambda n: rolled_value)
    for given_, got in zip(entered, out["struck"], strict=True):
        expected = {"value": rolled_value, "source": "rolled", "rng": "secrets"} if given_ is None else \
            {"value": given_, "source": "entered"}
        assert got["die"] == expected
    lookup("fire").parse(out)  # a filled payload is valid
