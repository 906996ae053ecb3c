"""The synthetic Flames of War battle (``battles.engine.fow.synthetic``, fow_engine_events_per_s) as
behaviour: what its docstring promises (``n`` events ending with ``battle_ended``, deterministic per seed;
infantry and tank platoons and an armoured train with its tank escort on each side; teams move, some At
the Double; platoons try to Dig In; teams shoot with the dice the engine expects; pinned platoons rally;
wrecks appear; reinforcements; the turn ends), each act checked against the state it is made in.

And the battle of the bench is a log the append gate accepts, event by event."""
from __future__ import annotations

import functools
import json
from typing import Any

import pytest

from battles import engine
from battles.engine import decide_and_apply, dump, fold
from battles.engine.events import Event
from battles.engine.fold import merge_rules
from battles.engine.fow.registry import REGISTRY
from battles.engine.fow.rules.actions import TeamShot, dice_expected
from battles.engine.fow.rules.trains import off_table
from battles.engine.fow.state import FowState
from battles.engine.fow.synthetic import _Gen, synthetic_fow_battle


def test_the_synthetic_fow_battle_is_deterministic_and_every_event_passes_the_engine_checks():
    events = synthetic_fow_battle(3000)
    assert [e.seq for e in events] == list(range(1, 3001))
    assert [(e.type, e.data) for e in events] == [(e.type, e.data) for e in synthetic_fow_battle(3000)]
    state = engine.new_state("fow")
    for i, e in enumerate(events):  # one at a time through the gate (checks run), like the append service
        state = engine.decide_and_apply(state, [(e.type, e.data, None)], first_seq=e.seq, ruleset="fow",
                                        history=lambda i=i: events[:i])[1]
    assert state.status == "ended" and state.applied == 3000 - len(state.voided)  # a take-back voids a move
    assert state.voided and all(events[seq - 1].type == "team_moved" for seq in state.voided)
    assert engine.state_to_json(engine.fold(events, ruleset="fow")) == engine.state_to_json(state)
    assert json.dumps(engine.state_to_json(engine.fold(events, ruleset="fow")), sort_keys=True) == \
        json.dumps(engine.state_to_json(state), sort_keys=True)  # the same types too, not only equal values
    types = {e.type for e in events}
    assert {"team_moved", "team_shot", "dig_in_attempted", "force_mustered", "turn_ended"} <= types
    assert any(e.data.get("at_the_double") for e in events if e.type == "team_moved")
    assert state.trains and all(t.escorts for t in state.trains.values())


SEEDS = (1, 2)


N = 1600


RULES = merge_rules(None, "fow")


@functools.cache
def battle(seed: int, n: int = N) -> tuple[Event, ...]:
    return tuple(synthetic_fow_battle(n, seed=seed))


def live(state: Any, side: str) -> list[str]:
    """Teams on the table neither destroyed nor wagons (an escort of a train still off it is not there)."""
    return [t.id for t in state.teams.values() if t.side == side and not t.destroyed and t.kind != "train"
            and off_table(state, t) is None]


@functools.cache
def walk(seed: int, n: int = N) -> tuple[tuple[Event, dict[str, Any]], ...]:
    """Each event with facts of the state just before it."""
    out = []
    state = FowState()
    for e in battle(seed, n):
        s = state
        facts: dict[str, Any] = {"side": s.side_to_move, "turn": s.turn, "ply": s.ply}
        if e.type == "team_shot":
            st, tt = s.teams[e.data["shooter"]], s.teams[e.data["target"]]
            facts["shooter"], facts["target"] = (st.side, st.destroyed, st.kind), (tt.side, tt.destroyed, tt.kind)
            facts["dice"] = dice_expected(s, TeamShot(st.id, tt.id, []), st, tt, RULES)[0]
            facts["platoon"] = tt.platoon
        if e.type == "team_moved":
            t = s.teams[e.data["team"]]
            facts["team"] = (t.side, t.destroyed, t.kind)
        if e.type == "dig_in_attempted":
            p = s.platoons[e.data["platoon"]]
            facts["platoon"] = (p.side, p.kind)
        if e.type == "status_set":
            facts["pinned"] = {p.id for p in s.platoons.values() if p.pinned}
            subject = e.data["subject"]
            facts["platoon_of"] = s.teams[subject].platoon if subject in s.teams else None
        facts["live"] = {side: len(live(s, side)) for side in ("attacker", "defender")}
        facts["pinned_of_side"] = [p.id for p in s.platoons.values() if p.side == s.side_to_move and p.pinned]
        out.append((e, facts))
        state = fold([e], state, copy=False, ruleset="fow")
    return tuple(out)


SETUP = {"force_mustered", "railway_edges_chosen", "railway_point_chosen", "railway_line_laid", "train_deployed",
         "train_held_back", "recon_deployment_started", "recon_deployment_move", "recon_deployment_ended",
         "building_placed"}


def plies(seed: int) -> list[list[tuple[Event, dict[str, Any]]]]:
    """The events of each whole ply (after the opening musters and the set-up before the first turn: scouts,
    Railway Lines, the trains' arrival, the recon deployment, a building; each ply closed by ``turn_ended``)."""
    out, cur = [], []
    events = walk(seed)
    start = next(i for i, (e, _f) in enumerate(events) if i > 0 and e.type not in SETUP)
    for e, f in events[start:]:
        if e.type == "battle_ended":
            break
        cur.append((e, f))
        if e.type == "turn_ended":
            out.append(cur)
            cur = []
    return out


# --- the log ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [4, 5, 60])
def test_the_fow_battle_has_exactly_n_events_numbered_1_to_n_and_ends_with_battle_ended(n):
    events = synthetic_fow_battle(n, seed=4)
    assert len(events) == n and [e.seq for e in events] == list(range(1, n + 1))
    assert events[-1] == Event(n, "battle_ended", {"winner": "draw", "reason": "synthetic"},
                               REGISTRY["battle_ended"].version)
    assert all(e.type != "battle_ended" for e in events[:-1])
    assert all(e.version == REGISTRY[e.type].version for e in events)


def test_the_default_fow_battle_is_seed_11():
    assert synthetic_fow_battle(300) == synthetic_fow_battle(300, seed=11)
    assert synthetic_fow_battle(300, seed=11) != synthetic_fow_battle(300, seed=12)
    assert battle(1) == tuple(synthetic_fow_battle(N, seed=1))


@pytest.mark.parametrize("seed", SEEDS)
def test_every_fow_event_passes_the_append_gate_and_replays_applied(seed):
    events = list(battle(seed))
    state = FowState()
    for i in range(0, N, 400):
        chunk = events[i:i + 400]
        state = decide_and_apply(state, [(e.type, e.data, e.version) for e in chunk], first_seq=i + 1,
                                 ruleset="fow", history=lambda i=i: events[:i])[1]
    applied = N - len(state.voided)  # a player's take-back (correction) voids his last move
    assert state.applied == applied and state.unapplied == [] and state.status == "ended"
    replay = fold(events, ruleset="fow")
    assert replay.applied == applied and replay.unapplied == [] and replay.winner == "draw"
    assert dump(replay) == dump(state)  # the gate's state is the replay's


def test_the_fow_generator_plays_fow_rules_with_d6_and_its_state_is_the_fold_of_its_log():
    g, h = _Gen(3), _Gen(3)
    assert g.ctx.rules == RULES and g.ctx.seq == 0 and g.made == 0 and g.out == [] and g.registry is REGISTRY
    dice = [g.d6() for _ in range(200)]
    assert dice == [h.d6() for _ in range(200)]
    assert {d["value"] for d in dice} == set(range(1, 7))  # G-F4: a d6, every face
    assert all(d == {"value": d["value"], "source": "rolled", "rng": "secrets"} for d in dice)
    g = _Gen(3)
    g.offer("battle_started", {"attacker": "A", "defender": "D", "ruleset": "fow", "units": "in",
                               "first_mover": "attacker"})
    g.muster("attacker", 2, 1)
    g.muster("defender", 2, 1)
    for _ in range(6):
        g.ply()
    assert g.state.last_seq == len(g.out) == g.state.applied + len(g.state.voided)
    assert fold(g.out, ruleset="fow").teams == g.state.teams


# --- musters ------------------------------------------------------------------------------------------
def muster_shape(data: dict[str, Any], infantry: int, tanks: int) -> list[str]:
    """G-F3: infantry platoons of six teams (the first with the pioneer supply), tank platoons of three
    armoured tanks, and an armoured train of four armoured wagons, the first its Locomotive, escorted by
    the first tank platoon. Returns the platoon ids."""
    p = data["side"][0].upper()
    platoons = data["platoons"]
    assert set(data) == {"side", "platoons"} and len(platoons) == infantry + tanks + 1
    for pl in platoons[:infantry]:
        pid = pl["id"]
        assert pid.startswith(f"{p}I") and set(pl) == {"id", "kind", "teams"} and pl["kind"] == "infantry"
        assert pl["teams"] == [{"id": f"{pid}t{i}", "kind": "infantry", "pioneer_supply": i == 0} for i in range(6)]
    for pl in platoons[infantry:infantry + tanks]:
        pid = pl["id"]
        assert pid.startswith(f"{p}T") and set(pl) == {"id", "kind", "teams"} and pl["kind"] == "tank"
        assert pl["teams"] == [{"id": f"{pid}t{i}", "kind": "tank", "armoured": True} for i in range(3)]
    train = platoons[-1]
    tid = train["id"]
    assert tid.startswith(f"{p}B") and train["kind"] == "armoured_train"
    assert train["escorts"] == [platoons[infantry]["id"]] if tanks else train["escorts"] == []
    assert train["teams"] == [{"id": f"{tid}w{i}", "kind": "train", "armoured": True, "locomotive": i == 0}
                              for i in range(4)]
    numbers = [int(pl["id"][2:]) for pl in platoons]
    assert numbers == list(range(numbers[0], numbers[0] + len(platoons)))  # one counter, in order
    return [pl["id"] for pl in platoons]


def test_the_fow_battle_starts_then_musters_both_sides():
    events = battle(1)
    assert events[0].type == "battle_started" and events[0].data == {
        "attacker": "Synthetic attacker", "defender": "Synthetic defender", "ruleset": "fow", "units": "in",
        "first_mover": "attacker"}
    a, d = events[1].data, events[2].data
    assert (events[1].type, a["side"], events[2].type, d["side"]) == (
        "force_mustered", "attacker", "force_mustered", "defender")
    assert muster_shape(a, 8, 4) == [*(f"AI{i}" for i in range(1, 9)), *(f"AT{i}" for i in range(9, 13)), "AB13"]
    assert muster_shape(d, 8, 4)[0] == "DI14" and d["platoons"][-1]["id"] == "DB26"
    state = fold(events[:3], ruleset="fow")
    assert all(t.escorts for t in state.trains.values()) and len(state.trains) == 2
    assert {t.locomotive for t in state.trains.values()} == {"AB13w0", "DB26w0"}


def test_a_muster_without_tanks_has_a_train_without_escort():
    g = _Gen(1)
    g.muster("defender", 1, 0)
    muster_shape(g.out[0].data, 1, 0)


@pytest.mark.parametrize(("destroyed", "reinforced"), [(0, False), (1, True)])
def test_a_side_with_fewer_than_40_live_teams_is_reinforced_at_its_turn(destroyed, reinforced):
    """At the start of its turn a side with fewer than 40 teams on the table, neither destroyed nor wagons,
    musters four infantry and two tank platoons (and a train); at 40 it does not. 6 infantry platoons and
    the 2 tank platoons not escorting the train (off the table, F-TRAIN-14) make 6 * 6 + 2 * 3 = 42 live
    teams; two destroyed leave 40, a third 39."""
    g = _Gen(2)
    g.offer("battle_started", {"attacker": "A", "defender": "D", "ruleset": "fow", "units": "in",
                               "first_mover": "attacker"})
    g.muster("attacker", 6, 3)
    g.muster("defender", 6, 3)
    for t in ["AI1t0", "AI1t1"] + (["AI1t2"] if destroyed else []):
        g.state.teams[t].destroyed = True
    assert len(g.live("attacker")) == 40 - destroyed and len(g.live("defender")) == 42
    start = len(g.out)
    g.ply()
    new = g.out[start:]
    musters = [e for e in new if e.type == "force_mustered"]
    if reinforced:
        assert new[0].type == "force_mustered" and len(musters) == 1 and musters[0].data["side"] == "attacker"
        muster_shape(musters[0].data, 4, 2)
    else:
        assert musters == []


@pytest.mark.parametrize("seed", SEEDS)
def test_reinforcements_come_exactly_when_a_side_is_below_40_live_teams(seed):
    seen = 0
    for ply in plies(seed):
        e0, f0 = ply[0]
        side = f0["side"]
        assert (e0.type == "force_mustered") == (f0["live"][side] < 40)
        if e0.type == "force_mustered":
            seen += 1
            assert e0.data["side"] == side
            muster_shape(e0.data, 4, 2)
    assert seen >= 1


@pytest.mark.parametrize("seed", SEEDS)
def test_the_sides_alternate_attacker_first_and_each_turn_ended_names_its_side_and_turn(seed):
    ps = plies(seed)
    assert len(ps) > 20
    assert [p[0][1]["side"] for p in ps[:4]] == ["attacker", "defender", "attacker", "defender"]
    for ply in ps:
        e, f = ply[-1]
        assert e.data == {"side": ply[0][1]["side"], "turn": f["turn"]}


@pytest.mark.parametrize("seed", SEEDS)
def test_pinned_platoons_rally_at_the_start_of_their_sides_turn(seed):
    """Every platoon of the side to move that is pinned rallies first (status_set pinned false)."""
    rallied = 0
    for ply in plies(seed):
        body = [(e, f) for e, f in ply if e.type != "force_mustered"]
        pinned = body[0][1]["pinned_of_side"]
        rallies = [e for e, _ in body[:len(pinned)]]
        assert [e.data for e in rallies] == [{"subject": pid, "status": "pinned", "value": False,
                                              "reason": "rallied"} for pid in pinned]
        assert all(e.type == "status_set" for e in rallies)
        rallied += len(pinned)
    assert rallied > 5


@pytest.mark.parametrize("seed", SEEDS)
def test_f_dig_two_infantry_platoons_of_the_side_try_to_dig_in_each_turn(seed):
    """F-DIG: two different infantry platoons of the side to move are offered each turn (a refused one,
    e.g. a platoon left without a team, is dropped)."""
    two = 0
    for ply in plies(seed):
        side = ply[0][1]["side"]
        digs = [(e, f) for e, f in ply if e.type == "dig_in_attempted"]
        assert 1 <= len(digs) <= 2 and len({e.data["platoon"] for e, _ in digs}) == len(digs)
        two += len(digs) == 2
        for e, f in digs:
            assert f["platoon"] == (side, "infantry") and set(e.data) == {"platoon", "die"}
            assert 1 <= e.data["die"]["value"] <= 6
        types = [e.type for e, _ in ply]
        assert types.index("dig_in_attempted") < types.index("team_moved") if "team_moved" in types else True
    assert two >= 0.9 * len(plies(seed))


@pytest.mark.parametrize("seed", SEEDS)
def test_f_dbl_teams_of_the_side_move_some_at_the_double_at_one_and_a_half_times_their_move(seed):
    """An infantry team moves up to 6", a tank up to 12"; At the Double one and a half times that with the
    closest enemy 10" away. 6 to 14 moves are offered a turn, some refused."""
    doubles = plain = 0
    counts = []
    for ply in plies(seed):
        side = ply[0][1]["side"]
        moves = [(e, f) for e, f in ply if e.type == "team_moved"]
        counts.append(len(moves))
        for e, f in moves:
            t_side, destroyed, kind = f["team"]
            assert t_side == side and not destroyed and kind in ("infantry", "tank")
            base = 6.0 if kind == "infantry" else 12.0
            if e.data.get("at_the_double"):
                doubles += 1
                assert e.data == {"team": e.data["team"], "distance": base * 1.5, "at_the_double": True,
                                  "closest_enemy": 10.0}
            else:
                plain += 1
                assert set(e.data) == {"team", "distance"} and 0 <= e.data["distance"] < base
    assert max(counts) <= 14 and doubles > 10 and plain > 3 * doubles / 2
    kinds = {(f["team"][2], bool(e.data.get("at_the_double"))) for p in plies(seed) for e, f in p
             if e.type == "team_moved"}
    assert kinds == {("infantry", True), ("infantry", False), ("tank", True), ("tank", False)}
    assert any(e.data["distance"] > 6 for p in plies(seed) for e, f in p
               if e.type == "team_moved" and not e.data.get("at_the_double") and f["team"][2] == "tank")


@pytest.mark.parametrize("seed", SEEDS)
def test_teams_shoot_at_live_enemies_with_the_dice_the_engine_expects(seed):
    """F-DBL-10 / G-F1: the dice are the shooter's Rate of Fire as the engine counts it (at least one)."""
    shots = 0
    for ply in plies(seed):
        side = ply[0][1]["side"]
        per_ply = 0
        for e, f in ply:
            if e.type != "team_shot":
                continue
            shots += 1
            per_ply += 1
            assert set(e.data) == {"shooter", "target", "dice"}
            assert f["shooter"][:2] == (side, False) and f["shooter"][2] != "train"
            assert f["target"][0] != side and not f["target"][1] and f["target"][2] != "train"
            assert len(e.data["dice"]) == max(f["dice"], 1)
            assert all(1 <= d["value"] <= 6 for d in e.data["dice"])
        assert per_ply <= 20
    assert shots > 100
    assert {f["shooter"][0] for e, f in walk(seed) if e.type == "team_shot"} == {"attacker", "defender"}
    counts = {len(e.data["dice"]) for e, _ in walk(seed) if e.type == "team_shot"}
    assert {1, 2} <= counts  # a team that moved shoots its moving Rate of Fire (1), a still one 2 (G-F1)


@pytest.mark.parametrize("seed", SEEDS)
def test_wrecks_follow_a_shot_and_a_wreck_may_pin_its_platoon(seed):
    """A team is destroyed only right after a shot at it; a pinning only right after a destruction, of the
    destroyed team's platoon."""
    events = walk(seed)
    destroyed = pinned = 0
    for i, (e, _f) in enumerate(events):
        if e.type != "status_set" or e.data.get("reason") == "rallied":
            continue
        prev, pf = events[i - 1]
        if e.data["status"] == "destroyed":
            destroyed += 1
            assert e.data == {"subject": e.data["subject"], "status": "destroyed", "reason": "hit, failed save"}
            assert prev.type == "team_shot" and prev.data["target"] == e.data["subject"]
        else:
            pinned += 1
            assert e.data == {"subject": e.data["subject"], "status": "pinned", "reason": "5 hits"}
            assert prev.type == "status_set" and prev.data["status"] == "destroyed"
            assert pf["platoon_of"] == e.data["subject"]
    assert destroyed > 30 and 5 < pinned < destroyed / 2
    shots = sum(e.type == "team_shot" for e, _ in events)
    assert 0.03 * shots < destroyed < 0.15 * shots  # wrecks appear after a few shots, not after most


@pytest.mark.parametrize("seed", SEEDS)
def test_the_fow_battle_makes_every_kind_of_event(seed):
    events = battle(seed)
    types = {e.type for e in events}
    assert types == set(REGISTRY)  # every FoW event type (tests/engine draw their FoW logs from this battle)
    assert {(e.data["status"], e.data.get("value", True)) for e in events if e.type == "status_set"} == {
        ("destroyed", True), ("pinned", True), ("pinned", False)}
    state = fold(events, ruleset="fow")
    assert any(t.destroyed for t in state.teams.values()) and any(t.dug_in for t in state.teams.values())
