"""Declaring postures (V-TURN-9, V-SQUAD-4, V-OFF-5/6/9, V-SNIP-1, V-MORALE-2,
V-TEST-3): which units must be declared, which fighters may have their own, and
what a morale result allows (issue 11: mutation kill rate)."""
import pytest

from .table import D, F, standard

ALL = {"A": "recon", "A2": "recon", "AHQ": "dug_in"}


def attacker_to_declare(rules=None):
    t = standard(rules)
    t.postures("defender")
    t.end_turn()
    return t


def declare(t, units=None, fighters=None):
    return t.add("postures_declared", side="attacker", units=ALL if units is None else units, fighters=fighters or {})


def refused(t, units=None, fighters=None):
    return t.refused("postures_declared", side="attacker", units=ALL if units is None else units,
                     fighters=fighters or {})


@pytest.mark.parametrize("unit", ["nope", "D"])
def test_s_unknown_a_side_declares_only_its_own_units(unit):
    t = attacker_to_declare()
    err = refused(t, units={**ALL, unit: "recon"})
    assert err.rule_id == "S-UNKNOWN"


def test_v_squad_4_a_fire_team_with_its_commander_declares_its_own_posture():
    t = attacker_to_declare()
    declare(t, units={"A": "recon", "A2": "assault", "AHQ": "dug_in"})
    assert (t.state.units["A"].posture, t.state.units["A2"].posture) == ("recon", "assault")
    assert t.state.units["A2"].posture_ply == t.state.ply == t.state.postures_ply


def test_v_squad_4_a_captured_corporals_team_follows_its_squad():
    t = attacker_to_declare()
    t.f("a_cpl").captured = True
    assert refused(t).rule_id == "V-SQUAD-4"
    declare(t, units={"A": "assault", "AHQ": "dug_in"})
    assert t.state.units["A2"].posture == "assault" and t.state.units["A2"].posture_ply == t.state.ply


# --- V-TURN-9: every manned unit is declared -------------------------------------------------------------------
@pytest.mark.parametrize("omitted", ["A", "A2", "AHQ"])
def test_v_turn_9_each_manned_unit_of_the_side_is_declared(omitted):
    t = attacker_to_declare()
    err = refused(t, units={k: v for k, v in ALL.items() if k != omitted})
    assert err.rule_id == "V-TURN-9" and err.message_en.endswith(f"missing {omitted}.")


def test_v_turn_9_a_squad_without_a_commander_is_declared_too():
    t = attacker_to_declare()
    t.add("force_mustered", side="attacker", units=[{"id": "N"}], fighters=[F("n1", "N")])
    err = refused(t)
    assert err.rule_id == "V-TURN-9" and err.message_en.endswith("missing N.")
    t.f("a_sgt").dead = True  # a squad whose sergeant is dead still has a posture
    err = refused(t, units={"A2": "recon", "AHQ": "dug_in", "N": "recon"})
    assert err.rule_id == "V-TURN-9" and err.message_en.endswith("missing A.")


@pytest.mark.parametrize("how", ["dead", "captured"])
def test_v_turn_9_a_unit_with_no_fighter_left_is_not_declared(how):
    t = attacker_to_declare()
    t.add("force_mustered", side="attacker", units=[{"id": "N"}], fighters=[F("n1", "N"), F("n2", "N")])
    for fid in ("n1", "n2"):
        setattr(t.f(fid), how, True)
    declare(t)
    assert t.state.units["N"].posture_ply == -1


def test_v_turn_9_one_fighter_left_keeps_the_unit_manned():
    t = attacker_to_declare()
    t.add("force_mustered", side="attacker", units=[{"id": "N"}], fighters=[F("n1", "N"), F("n2", "N")])
    t.f("n1").dead = True
    assert refused(t).rule_id == "V-TURN-9"
    declare(t, units={**ALL, "N": "march"})
    assert t.state.units["N"].posture == "march"


# --- fighters' own postures (V-OFF-5, V-OFF-6, V-OFF-9, V-SNIP-1) -----------------------------------------------
@pytest.mark.parametrize("fid", ["a_tp", "a_bo", "a_sgt", "a1"])
def test_v_off_5_fighters_follow_their_units_posture(fid):
    """Rank and file outside units (a tank's personnel), a lieutenant inside a unit (a_bo in AHQ),
    a sergeant and a rifleman have no posture of their own."""
    t = attacker_to_declare()
    assert refused(t, fighters={fid: "march"}).rule_id == "V-OFF-5"


@pytest.mark.parametrize("first", ["a_snp", "a_lt", "a_cpt"])
def test_v_off_5_a_fighter_with_his_own_posture_does_not_excuse_the_next(first):
    t = attacker_to_declare()
    assert refused(t, fighters={first: "march", "a1": "recon"}).rule_id == "V-OFF-5"


def test_v_snip_1_v_off_9_snipers_and_officers_outside_units_have_their_own():
    t = attacker_to_declare()
    declare(t, fighters={"a_snp": "march", "a_lt": "assault", "a_cpt": "dug_in"})
    assert [(t.f(x).posture, t.f(x).posture_ply) for x in ("a_snp", "a_lt", "a_cpt")] == \
        [("march", t.state.ply), ("assault", t.state.ply), ("dug_in", t.state.ply)]


def test_s_unknown_a_side_declares_no_posture_for_another_sides_sniper():
    t = attacker_to_declare()
    assert refused(t, fighters={"d_snp": "recon"}).rule_id == "S-UNKNOWN"


# --- V-MORALE-2: the morale result holds -------------------------------------------------------------------------
@pytest.mark.parametrize(("die", "held", "other"), [(8, "march", "recon"), (12, "dug_in", "assault"),
                                                    (12, "dug_in", "march")])
def test_v_morale_2_a_retreat_holds_march_and_digging_in_holds_dug_in(die, held, other):
    t = standard()
    t.postures("defender")
    t.add("morale_test", unit="D", die=D(die), officer_distances={})
    t.end_turn()
    t.postures("attacker")
    t.end_turn()
    units = {"D": other, "DC": "dug_in"}
    assert t.refused("postures_declared", side="defender", units=units).rule_id == "V-MORALE-2"
    t.add("postures_declared", side="defender", units={**units, "D": held})
    assert t.state.units["D"].posture == held


def test_v_morale_2_carrying_on_any_posture_may_be_declared():
    t = standard()
    t.postures("defender")
    t.add("morale_test", unit="D", die=D(18), officer_distances={}, new_commander="d1")
    t.end_turn()
    t.postures("attacker")
    t.end_turn()
    t.add("postures_declared", side="defender", units={"D": "assault", "DC": "dug_in"})
    assert t.state.units["D"].posture == "assault"
