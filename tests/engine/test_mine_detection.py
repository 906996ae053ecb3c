"""Finding mines (V-MINE-13, V-MINE-14): only sappers detect them, and a mine or charge is shown to an enemy
sapper within 6 in."""
import pytest

from battles.engine.state import Mine

from .engineering_helpers import approached, laid_mine, mined
from .table import standard


@pytest.mark.parametrize(("sapper", "dist", "rule"), [("a_sap", 6.0, None), ("a_sap", 6.01, "V-MINE-14"),
                                                      ("a1", 1.0, "V-MINE-13")])
def test_v_mine_13_only_sappers_detect_v_mine_14_revealed_within_6(sapper, dist, rule):
    t = laid_mine()
    data = dict(mine="M1", sapper=sapper, distance=dist)
    if rule:
        assert t.refused("mine_revealed", **data).rule_id == rule
    else:
        t.add("mine_revealed", **data)
        assert t.state.mines["M1"].revealed


def test_v_mine_14_an_unshown_enemy_mine_is_refused_as_a_missing_one():
    """V-MINE-13, V-MINE-14: the attacker's sapper cannot lift (nor learn of) a mine his side was not shown:
    the refusal is the one for no mine at all, and the mine stays live."""
    answers = {}
    for target in ("M1", "M7"):
        t = laid_mine()
        t.add("sapper_approached", sapper="a_sap", object=target, distance=3)
        t.next_turn()
        t.next_turn(A="recon")
        err = t.refused("sapper_worked", sapper="a_sap", action="remove", object=target)
        answers[target] = (err.rule_id, err.message_ru.replace(target, "?"), err.message_en.replace(target, "?"))
        assert t.state.mines["M1"].active
    assert answers["M1"] == answers["M7"] and answers["M1"][0] == "S-UNKNOWN"


def test_v_mine_14_laying_under_the_name_of_a_hidden_enemy_mine_lays_a_second_beside_it():
    """Refusing would tell the sapper the enemy's mine is there: his stands beside it, under a key of its own,
    and the enemy's is unchanged (``battles.engine.mines``)."""
    t = approached(obj="M")
    t.state.mines["M"] = Mine("M", "defender", "ap", "d_sap")
    t.add("sapper_worked", sapper="a_sap", action="lay", object="M", kind="at")
    assert [(k, m.id, m.side, m.kind, m.active) for k, m in t.state.mines.items()] == [
        ("M", "M", "defender", "ap", True), ("M~", "M", "attacker", "at", True)]


# --- mine_revealed ----------------------------------------------------------------------------------------
def test_v_mine_14_revealing_before_the_battle_starts_is_refused():
    t = standard(start=False)
    t.state.mines["M"] = Mine("M", "defender", "ap", "d_sap")
    assert t.refused("mine_revealed", mine="M", sapper="a_sap", distance=1).rule_id == "S-NOT-STARTED"


@pytest.mark.parametrize("case", ["unknown", "spent"])
def test_v_mine_14_only_a_live_mine_is_revealed(case):
    t = mined()
    t.state.mines["M"].active = case != "spent"
    mid = "NOPE" if case == "unknown" else "M"
    assert t.refused("mine_revealed", mine=mid, sapper="a_sap", distance=1).rule_id == "S-UNKNOWN"


def test_v_mine_14_a_charge_is_revealed_too_in_any_turn():
    t = mined("charge", mid="C")
    t.next_turn()
    t.add("mine_revealed", mine="C", sapper="a_sap", distance=6.0)
    assert t.state.mines["C"].revealed and t.state.mines["C"].active


def test_v_mine_13_an_unknown_sapper_is_refused_s_unknown():
    t = mined()
    assert t.refused("mine_revealed", mine="M", sapper="ghost", distance=1).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("who", "status", "rule"), [
    ("a1", None, "V-MINE-13"), ("d_sap", None, "V-MINE-14"), ("a_sap", "dead", "V-MINE-14"),
    ("a_sap", "captured", "V-MINE-14"),
])
def test_v_mine_13_14_a_live_free_enemy_sapper_reveals(who, status, rule):
    t = mined()
    if status:
        setattr(t.f(who), status, True)
    if rule:
        assert t.refused("mine_revealed", mine="M", sapper=who, distance=1).rule_id == rule
        assert not t.state.mines["M"].revealed
    else:
        t.add("mine_revealed", mine="M", sapper=who, distance=1)
        assert t.state.mines["M"].revealed


def test_v_mine_13_a_dead_non_sapper_is_refused_as_no_sapper():
    t = mined()
    t.f("a1").dead = True
    assert t.refused("mine_revealed", mine="M", sapper="a1", distance=1).rule_id == "V-MINE-13"


@pytest.mark.parametrize(("dist", "ok"), [(3.0, True), (3.01, False)])
def test_v_mine_14_the_masters_reveal_distance_counts(dist, ok):
    t = mined(rules={"sapper_reveal_distance": 3.0})
    if ok:
        t.add("mine_revealed", mine="M", sapper="a_sap", distance=dist)
        assert t.state.mines["M"].revealed
    else:
        assert t.refused("mine_revealed", mine="M", sapper="a_sap", distance=dist).rule_id == "V-MINE-14"
