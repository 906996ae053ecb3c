"""Corrected fire (V-CORR-1..6, V-RADIO, V-BUNK-8, V-GUN-1, G-20): who corrects, for which weapons, the
radio chain, once per turn, and fire without visual contact; each refusal with its rule ID."""
import pytest

from .fire_helpers import corr, pillbox_table, rifle, wound
from .table import D, F, at_turn, defender_turn, standard, tank


def corrected_mortar(**kw):
    data = dict(shooter="DM", weapon="mortar", target="fighters", target_id="a1", distance=20, hit=D(11),
                corrected=True, visual_contact=False, struck=[{"fighter": "a1", "die": D(11)}])
    data.update(kw)
    return data


def radio(**kw):
    data = corr("a_sc", via="radio", distance=6, radio_operators=["a_rad", "a_rad2"], battery_officer="a_bo",
                battery_distance=6)
    data.update(kw)
    return data


# --- correction, smoke, visual contact ------------------------------------------------------------------------------




def test_v_corr_1_corrected_fire_needs_this_turn_s_correction_of_this_shooter_at_this_target():
    t = defender_turn()
    assert t.refused("fire", **corrected_mortar()).rule_id == "V-CORR-1"
    t.add("fire_corrected", corrector="d_lt", shooter="DM", target="a2", distance=5)
    assert t.refused("fire", **corrected_mortar()).rule_id == "V-CORR-1"  # another target
    t.add("fire", **corrected_mortar(target_id="a2", struck=[{"fighter": "a2", "die": D(11)}]))
    assert t.f("a2").wounded


def test_v_corr_1_a_correction_of_an_earlier_turn_has_lapsed():
    t = defender_turn()
    t.add("fire_corrected", corrector="d_lt", shooter="DM", target="a1", distance=5)
    t.next_turn()
    t.next_turn()
    assert t.refused("fire", **corrected_mortar()).rule_id == "V-CORR-1"


def test_v_corr_1_a_correction_serves_only_the_shooter_it_names():
    t = defender_turn()
    tank(t, "defender", "DM2", armour=1, gun=2, weapon="mortar", kind="artillery")
    t.add("fire_corrected", corrector="d_lt", shooter="DM2", target="a1", distance=5)
    assert t.refused("fire", **corrected_mortar()).rule_id == "V-CORR-1"
    t.add("fire", **corrected_mortar(shooter="DM2"))


def test_v_corr_2_a_rifle_has_no_corrected_fire():
    t = at_turn()
    err = t.refused("fire", **rifle(corrected=True, visual_contact=False))
    assert err.rule_id == "V-CORR-2"


def test_v_corr_2_the_corrected_weapons_are_rules_data():
    t = defender_turn({"corrected_fire_weapons": ["howitzer"]})
    assert t.refused("fire", **corrected_mortar()).rule_id == "V-CORR-2"


def test_g20_corrected_fire_is_not_blocked_by_smoke():
    t = defender_turn()
    t.add("smoke_fired", shooter="d1", officer="d_sgt", officer_distance=5, smoke="S")
    t.add("fire_corrected", corrector="d_lt", shooter="DM", target="a1", distance=5)
    t.add("fire", **corrected_mortar(through_smoke="S"))
    assert t.f("a1").wounded


def test_g20_a_smoke_id_not_on_the_table_blocks_nothing_and_the_reading_can_turn_smoke_off():
    t = defender_turn()
    t.add("smoke_fired", shooter="d1", officer="d_sgt", officer_distance=5, smoke="S")
    t.fire("d2", "rifle", through_smoke="S2", struck=[{"fighter": "a1", "die": D(11)}])
    assert t.f("a1").wounded
    assert t.refused("fire", **rifle("d3", "a2", through_smoke="S")).rule_id == "V-SMOKE-4"
    t2 = defender_turn({"smoke_blocks_sight": False})
    t2.add("smoke_fired", shooter="d1", officer="d_sgt", officer_distance=5, smoke="S")
    t2.fire("d2", "rifle", through_smoke="S", struck=[{"fighter": "a1", "die": D(11)}])
    assert t2.f("a1").wounded


def test_v_corr_1_without_visual_contact_only_corrected_fire_at_fighters_houses_and_vehicles():
    t = at_turn()
    assert t.refused("fire", **rifle(visual_contact=False)).rule_id == "V-CORR-1"
    err = t.refused("fire", shooter="a_fl", weapon="flamethrower", target="house", target_id="H", distance=4,
                    hit=D(15), visual_contact=False)
    assert err.rule_id == "V-CORR-1"
    err = t.refused("fire", shooter="AH", weapon="howitzer", target="vehicle", target_id="DT4", distance=30,
                    hit=D(15), visual_contact=False)
    assert err.rule_id == "V-CORR-1"


# Issue 11: fire correction (``fire._check_corrected``, V-CORR-2..6, V-RADIO,
# V-SCOUT-1, V-SNIP-4, V-BUNK-8, V-GUN-1) and smoke rounds (``fire._check_smoke``,
# V-SMOKE-1..3, V-SMOKE-8, V-ATGL-2), each refusal with its rule ID and each
# threshold on both sides, and what each event records.








# --- fire_corrected -----------------------------------------------------------------------------------------------
def test_s_not_started_no_correction_before_the_battle():
    t = standard(start=False)
    assert t.refused("fire_corrected", **corr()).rule_id == "S-NOT-STARTED"


def test_v_corr_records_the_correction_and_the_corrector_s_turn():
    t = at_turn()
    t.add("fire_corrected", **corr(distance=2))
    c = t.state.fire_corrections[-1]
    assert (c.corrector, c.shooter, c.target, c.ply) == ("a_sgt", "AH", "H", t.state.ply)
    assert t.f("a_sgt").corrected_ply == t.state.ply


def test_v_med_3_a_wounded_officer_does_not_correct():
    t = defender_turn()
    wound(t, "a_sgt")
    t.next_turn(A="recon")
    assert t.refused("fire_corrected", **corr()).rule_id == "V-MED-3"


@pytest.mark.parametrize(("corrector", "ok"), [("a_lt", True), ("a_cpt", True), ("a_cpl", True), ("a_sc", True),
                                               ("a_rad", False), ("a_med", False), ("a_lmg", False)])
def test_v_corr_3_officers_of_every_rank_and_scouts_correct_others_do_not(corrector, ok):
    t = at_turn()
    if ok:
        t.add("fire_corrected", **corr(corrector))
    else:
        assert t.refused("fire_corrected", **corr(corrector)).rule_id == "V-CORR-3"


def test_v_corr_6_a_corrector_corrects_again_in_his_next_turn():
    t = at_turn()
    t.add("fire_corrected", **corr())
    assert t.refused("fire_corrected", **corr(target="B")).rule_id == "V-CORR-6"
    t.add("fire_corrected", **corr("a_lt", target="B"))  # another officer, this turn
    t.next_turn()
    t.next_turn(A="recon")
    t.add("fire_corrected", **corr(target="B"))
    assert t.state.fire_corrections[-1].target == "B"


def test_v_turn_12_a_correction_is_made_in_the_corrector_s_turn():
    t = at_turn()
    assert t.refused("fire_corrected", **corr("d_lt", "DM", "a1")).rule_id == "V-TURN-12"


def test_s_unknown_a_corrector_not_on_the_table():
    t = at_turn()
    assert t.refused("fire_corrected", **corr("nobody")).rule_id == "S-UNKNOWN"
    assert t.refused("fire_corrected", **corr(shooter="nothing")).rule_id == "S-UNKNOWN"


def test_v_corr_3_a_pillbox_without_the_spotter_characteristic_does_not_correct():
    t = pillbox_table(spotter=False)
    assert t.refused("fire_corrected", **corr("P", "DH", "a1", distance=1)).rule_id == "V-CORR-3"


def test_v_corr_3_a_destroyed_spotter_vehicle_corrects_nothing():
    t = at_turn()
    tank(t, "attacker", "SPOT", armour=2, gun=0, specialisations=["spotter"])
    t.state.vehicles["SPOT"].destroyed = True
    assert t.refused("fire_corrected", **corr("SPOT", distance=1)).rule_id == "V-CORR-3"


def test_v_corr_6_a_spotter_vehicle_records_its_correction_without_a_fighter():
    t = at_turn()
    tank(t, "attacker", "SPOT", armour=2, gun=0, specialisations=["spotter"])
    t.add("fire_corrected", **corr("SPOT", distance=6))
    c = t.state.fire_corrections[-1]
    assert (c.corrector, c.shooter, c.target, c.ply) == ("SPOT", "AH", "H", t.state.ply)


@pytest.mark.parametrize(("weapon", "ok"), [("mortar", True), ("heavy_howitzer", True), ("infantry_howitzer", True),
                                            ("aa_autocannon", False)])
def test_v_corr_2_the_corrected_weapons(weapon, ok):
    t = at_turn()
    tank(t, "attacker", "W", armour=1, gun=2, weapon=weapon, kind="artillery")
    if ok:
        t.add("fire_corrected", **corr(shooter="W"))
    else:
        assert t.refused("fire_corrected", **corr(shooter="W")).rule_id == "V-CORR-2"


def test_v_corr_2_the_weapons_a_correction_may_direct_are_rules_data():
    t = at_turn({"corrected_fire_weapons": ["mortar"]})
    assert t.refused("fire_corrected", **corr()).rule_id == "V-CORR-2"


@pytest.mark.parametrize(("dist", "ok"), [(4.0, True), (4.01, False)])
def test_v_corr_5_the_talking_distance_is_rules_data(dist, ok):
    t = at_turn({"talk_distance": 4.0})
    if ok:
        t.add("fire_corrected", **corr(distance=dist))
    else:
        assert t.refused("fire_corrected", **corr(distance=dist)).rule_id == "V-CORR-5"


@pytest.mark.parametrize(("dist", "battery", "ok"), [(6.0, 6.0, True), (6.01, 1.0, False), (1.0, 6.01, False)])
def test_v_corr_4_each_spoken_link_of_the_radio_chain_within_6(dist, battery, ok):
    t = at_turn()
    data = radio(distance=dist, battery_distance=battery)
    if ok:
        t.add("fire_corrected", **data)
        assert t.state.fire_corrections[-1].corrector == "a_sc"
    else:
        assert t.refused("fire_corrected", **data).rule_id == "V-CORR-4"


@pytest.mark.parametrize("kw", [dict(radio_operators=["a_rad"]), dict(radio_operators=[]),
                                dict(battery_officer=None), dict(battery_distance=None)])
def test_v_corr_4_the_chain_names_two_radio_operators_the_battery_officer_and_the_distances(kw):
    t = at_turn()
    assert t.refused("fire_corrected", **radio(**kw)).rule_id == "V-CORR-4"


def test_v_corr_4_the_chain_is_of_one_s_own_side():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("d_rad", "D", "radio_operator")])
    assert t.refused("fire_corrected", **radio(radio_operators=["a_rad", "d_rad"])).rule_id == "V-CORR-4"
    assert t.refused("fire_corrected", **radio(battery_officer="d_lt")).rule_id == "V-CORR-4"
    assert t.refused("fire_corrected", **radio(radio_operators=["a_rad", "zz"])).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize("who", ["a_rad", "a_rad2", "a_lt"])
def test_v_med_3_a_wounded_link_breaks_the_chain(who):
    t = defender_turn()
    wound(t, who)
    t.next_turn(A="recon")
    assert t.refused("fire_corrected", **radio(battery_officer="a_lt")).rule_id == "V-MED-3"


# --- fire correction ---------------------------------------------------------------------
def correction_turn():
    return at_turn()


@pytest.mark.parametrize(("dist", "ok"), [(6.0, True), (6.01, False)])
def test_v_corr_5_direct_correction_within_6_and_v_corr_1_corrected_fire_without_contact(dist, ok):
    t = correction_turn()
    data = dict(corrector="a_sgt", shooter="AH", target="H", distance=dist)
    if not ok:
        assert t.refused("fire_corrected", **data).rule_id == "V-CORR-5"
        return
    t.add("fire_corrected", **data)
    t.fire("AH", "howitzer", target="house", target_id="H", distance=40, visual_contact=False, corrected=True, hit=D(11))
    assert t.state.buildings["H"].damage == 1


def test_v_corr_1_no_indirect_fire_without_a_correction():
    t = correction_turn()
    err = t.refused("fire", shooter="AH", weapon="howitzer", target="house", target_id="H", distance=40,
                    visual_contact=False, corrected=True, hit=D(11))
    assert err.rule_id == "V-CORR-1"
    err = t.refused("fire", shooter="AH", weapon="howitzer", target="house", target_id="H", distance=40,
                    visual_contact=False, hit=D(11))
    assert err.rule_id == "V-CORR-1"


def test_v_corr_2_only_howitzers_mortars_aviation_and_v_corr_3_who_corrects_v_snip_4():
    t = correction_turn()
    assert t.refused("fire_corrected", corrector="a_sgt", shooter="AT3", target="H", distance=1).rule_id == "V-GUN-1"
    assert t.refused("fire_corrected", corrector="a1", shooter="AH", target="H", distance=1).rule_id == "V-CORR-3"
    assert t.refused("fire_corrected", corrector="a_snp", shooter="AH", target="H", distance=1).rule_id == "V-SNIP-4"
    t.add("fire_corrected", corrector="a_sc", shooter="AH", target="H", distance=6)  # V-SCOUT-1


def test_v_corr_2_reading_rocket_mortar_allowed_and_a_machine_gun_not():
    t = correction_turn()
    tank(t, "attacker", "RM", armour=1, gun=3, weapon="rocket_mortar", kind="artillery")
    tank(t, "attacker", "MG", armour=1, gun=1, weapon="vehicle_mg", kind="car")
    t.add("fire_corrected", corrector="a_sgt", shooter="RM", target="H", distance=1)
    assert t.refused("fire_corrected", corrector="a_cpl", shooter="MG", target="H", distance=1).rule_id == "V-CORR-2"


def test_v_corr_4_radio_chain_and_v_radio_1_2_radio_operators_call_strikes():
    t = correction_turn()
    t.add("fire_corrected", corrector="a_sc", shooter="AH", target="H", via="radio", distance=6,
          radio_operators=["a_rad", "a_rad2"], battery_officer="a_bo", battery_distance=6)
    t.fire("AH", "howitzer", target="house", target_id="H", distance=60, visual_contact=False, corrected=True, hit=D(15))
    assert t.state.buildings["H"].damage == 1


@pytest.mark.parametrize("kw", [dict(radio_operators=["a_rad"], battery_officer="a_bo", battery_distance=1),
                                dict(radio_operators=["a_rad", "a_rad2"], battery_officer="a_bo", battery_distance=6.01),
                                dict(radio_operators=["a_rad", "a1"], battery_officer="a_bo", battery_distance=1),
                                dict(radio_operators=["a_rad", "a_rad2"], battery_officer="a1", battery_distance=1)])
def test_v_corr_4_broken_radio_chains_are_refused(kw):
    t = correction_turn()
    assert t.refused("fire_corrected", corrector="a_sgt", shooter="AH", target="H", via="radio", distance=2,
                     **kw).rule_id == "V-CORR-4"


def test_v_corr_6_one_correction_per_turn_per_corrector_one_target():
    t = correction_turn()
    t.add("fire_corrected", corrector="a_sgt", shooter="AH", target="H", distance=1)
    assert t.refused("fire_corrected", corrector="a_sgt", shooter="AH", target="B", distance=1).rule_id == "V-CORR-6"
    err = t.refused("fire", shooter="AH", weapon="howitzer", target="bunker", target_id="B", distance=40,
                    corrected=True, visual_contact=False, hit=D(11))
    assert err.rule_id == "V-CORR-1"  # corrected onto H, not B


def test_v_bunk_8_pillbox_spotter_needs_a_scout_inside():
    t = standard()
    tank(t, "defender", "DH", armour=1, gun=4, weapon="howitzer", kind="artillery")
    t.postures("defender")
    assert t.refused("fire_corrected", corrector="B", shooter="DH", target="x", distance=1).rule_id == "V-BUNK-8"
    t.add("force_mustered", side="defender", fighters=[F("d_sc", "D", "scout", bunker="B")])
    t.add("fire_corrected", corrector="B", shooter="DH", target="x", distance=1)


def test_v_corr_3_spotter_vehicles_correct_other_vehicles_do_not_v_corr_6_once_per_turn():
    t = correction_turn()
    tank(t, "attacker", "SPOT", armour=2, gun=0, specialisations=["spotter"])
    assert t.refused("fire_corrected", corrector="AT3", shooter="AH", target="H", distance=1).rule_id == "V-CORR-3"
    t.add("fire_corrected", corrector="SPOT", shooter="AH", target="H", distance=3)
    assert t.refused("fire_corrected", corrector="SPOT", shooter="AH", target="B", distance=3).rule_id == "V-CORR-6"
    t.next_turn()
    t.next_turn(A="recon")
    t.add("fire_corrected", corrector="SPOT", shooter="AH", target="B", distance=3)  # a new turn
