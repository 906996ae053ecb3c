"""Issue 11: fire correction (``fire._check_corrected``, V-CORR-2..6, V-RADIO,
V-SCOUT-1, V-SNIP-4, V-BUNK-8, V-GUN-1) and smoke rounds (``fire._check_smoke``,
V-SMOKE-1..3, V-SMOKE-8, V-ATGL-2), each refusal with its rule ID and each
threshold on both sides, and what each event records."""
import pytest

from .table import D, F, at_turn, defender_turn, standard, tank


def corr(corrector="a_sgt", shooter="AH", target="H", **kw):
    return dict(corrector=corrector, shooter=shooter, target=target, **kw)


def radio(**kw):
    data = corr("a_sc", via="radio", distance=6, radio_operators=["a_rad", "a_rad2"], battery_officer="a_bo",
                battery_distance=6)
    data.update(kw)
    return data


def wound(t, fid):
    """Wound ``fid`` (of the side not to move) by a rifle shot of the side to move, within its turn."""
    shooter = {"attacker": "a4", "defender": "d6"}[t.state.side_to_move]
    t.fire(shooter, "rifle", struck=[{"fighter": fid, "die": D(20)}])
    assert t.f(fid).wounded


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


def pillbox_table(rules=None, *, spotter=True, scout=True):
    t = standard(rules)
    t.add("terrain_placed", **({"spotter_bunkers": ["P"]} if spotter else {"bunkers": ["P"]}))
    tank(t, "defender", "DH", armour=1, gun=4, weapon="howitzer", kind="artillery")
    if scout:
        t.add("force_mustered", side="defender", fighters=[F("d_sc", "D", "scout", bunker="P")])
    t.postures("defender")
    return t


def test_v_corr_3_a_pillbox_without_the_spotter_characteristic_does_not_correct():
    t = pillbox_table(spotter=False)
    assert t.refused("fire_corrected", **corr("P", "DH", "a1", distance=1)).rule_id == "V-CORR-3"


def test_v_bunk_8_a_spotter_pillbox_with_a_scout_corrects_once_per_turn_v_corr_6():
    t = pillbox_table()
    t.add("fire_corrected", **corr("P", "DH", "a1", distance=1))
    c = t.state.fire_corrections[-1]
    assert (c.corrector, c.shooter, c.target) == ("P", "DH", "a1")
    assert t.refused("fire_corrected", **corr("P", "DH", "a2", distance=1)).rule_id == "V-CORR-6"
    t.next_turn()
    t.next_turn()
    t.add("fire_corrected", **corr("P", "DH", "a2", distance=1))


def test_v_bunk_8_a_dead_scout_no_longer_works_the_pillbox_s_spotter():
    t = pillbox_table()
    t.end_turn()
    t.postures("attacker")
    t.fire("AT3", "gun", distance=10, hit=D(15), struck=[{"fighter": "d_sc"}])
    assert not t.f("d_sc").dead  # V-BUNK-1: invulnerable inside; the scout stays
    t.next_turn()
    t.add("fire_corrected", **corr("P", "DH", "a1", distance=1))


def test_v_bunk_8_a_pillbox_s_correction_is_for_the_side_of_the_scout_inside():
    t = pillbox_table()
    t.end_turn()
    t.postures("attacker")  # the attacker's turn: the defender's pillbox corrects nothing now
    assert t.refused("fire_corrected", **corr("P", "DH", "a1", distance=1)).rule_id == "V-TURN-12"


def test_v_bunk_8_read_without_the_scout_the_pillbox_corrects_for_whoever_holds_it():
    """The rules data's other reading of V-BUNK-8 (``spotter_needs_scout.bunker`` off): any of
    the garrison works the Spotter, for his own side, in his side's turn; an empty pillbox
    corrects for no one."""
    t = pillbox_table({"spotter_needs_scout": {"bunker": False}}, scout=False)
    refusal = t.refused("fire_corrected", **corr("P", "DH", "a1", distance=1))
    assert refusal.rule_id == "V-BUNK-8" and "Nobody is inside" in refusal.message_en
    t.add("force_mustered", side="defender", fighters=[F("d_rf", "D", bunker="P")])
    t.add("fire_corrected", **corr("P", "DH", "a1", distance=1))
    assert t.state.fire_corrections[-1].corrector == "P"
    t.end_turn()
    t.postures("attacker")
    assert t.refused("fire_corrected", **corr("P", "DH", "a2", distance=1)).rule_id == "V-TURN-12"


def test_v_bunk_8_by_default_a_garrison_without_a_scout_does_not_work_the_spotter():
    t = pillbox_table(scout=False)
    t.add("force_mustered", side="defender", fighters=[F("d_rf", "D", bunker="P")])
    refusal = t.refused("fire_corrected", **corr("P", "DH", "a1", distance=1))
    assert refusal.rule_id == "V-BUNK-8" and "scout" in refusal.message_en


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


@pytest.mark.parametrize("weapon", ["gun", "at_gun", "aa_gun"])
def test_v_gun_1_no_gun_fires_on_a_correction(weapon):
    t = at_turn()
    tank(t, "attacker", "G", armour=1, gun=3, weapon=weapon, kind="artillery")
    assert t.refused("fire_corrected", **corr(shooter="G")).rule_id == "V-GUN-1"


@pytest.mark.parametrize(("weapon", "ok"), [("mortar", True), ("heavy_howitzer", True), ("infantry_howitzer", True),
                                            ("aa_autocannon", False)])
def test_v_corr_2_the_corrected_weapons(weapon, ok):
    t = at_turn()
    tank(t, "attacker", "W", armour=1, gun=2, weapon=weapon, kind="artillery")
    if ok:
        t.add("fire_corrected", **corr(shooter="W"))
    else:
        assert t.refused("fire_corrected", **corr(shooter="W")).rule_id == "V-CORR-2"


def test_v_corr_2_the_corrected_weapons_are_rules_data():
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


# --- smoke_fired ------------------------------------------------------------------------------------------------------


def smoke(shooter="a1", officer="a_sgt", sid="S", dist=5.0):
    return dict(shooter=shooter, officer=officer, officer_distance=dist, smoke=sid)


def test_v_smoke_records_the_screen_the_round_and_the_shot():
    t = at_turn()
    t.add("smoke_fired", **smoke())
    s = t.state.smoke["S"]
    assert (s.id, s.side, s.ply, s.by) == ("S", "attacker", t.state.ply, "a1")
    a1 = t.f("a1")
    assert (a1.shot_ply, a1.shots, a1.shot_target) == (t.state.ply, 1, "smoke")
    assert (t.state.units["A"].smoke_used, t.state.units["A"].smoke_ply) == (1, t.state.ply)
    assert t.state.phase == "fire"
    assert t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                     struck=[{"fighter": "d1", "die": D(3)}]).rule_id == "V-TURN-11"  # his shot of the turn


def test_v_smoke_a_fire_team_s_round_is_its_squad_s():
    t = at_turn()
    t.add("smoke_fired", **smoke("a5", "a_cpl"))
    assert t.state.units["A"].smoke_used == 1 and t.state.units["A2"].smoke_used == 0


def test_v_smoke_1_a_vehicle_records_its_own_rounds():
    t = defender_turn()
    t.add("smoke_fired", **smoke("DM", "d_lt"))
    dm = t.v("DM")
    assert (dm.smoke_used, dm.smoke_ply, dm.shots, dm.shot_target) == (1, t.state.ply, 1, "smoke")
    assert t.state.smoke["S"].side == "defender" and t.state.smoke["S"].by == "DM"
    t.next_turn()
    t.next_turn()
    t.add("smoke_fired", **smoke("DM", "d_lt", "S2"))
    t.next_turn()
    t.next_turn()
    assert t.refused("smoke_fired", **smoke("DM", "d_lt", "S3")).rule_id == "V-SMOKE-3"


def test_v_smoke_3_reading_per_turn_the_vehicle_s_count_starts_again():
    t = defender_turn({"smoke_period": "turn"})
    t.add("smoke_fired", **smoke("DM", "d_lt"))
    t.next_turn()
    t.next_turn()
    t.add("smoke_fired", **smoke("DM", "d_lt", "S2"))
    assert t.v("DM").smoke_used == 1


def test_v_smoke_3_the_limit_is_rules_data():
    t = at_turn({"smoke_limit": 1})
    t.add("smoke_fired", **smoke())
    assert t.refused("smoke_fired", **smoke("a2", sid="S2")).rule_id == "V-SMOKE-3"


def test_s_duplicate_a_screen_id_already_on_the_table():
    t = at_turn()
    t.add("smoke_fired", **smoke())
    assert t.refused("smoke_fired", **smoke("a2")).rule_id == "S-DUPLICATE"


def test_v_turn_12_smoke_is_fired_in_one_s_own_turn():
    t = at_turn()
    assert t.refused("smoke_fired", **smoke("d1", "d_sgt")).rule_id == "V-TURN-12"


def test_v_turn_9_smoke_after_the_postures():
    t = standard()
    assert t.refused("smoke_fired", **smoke("d1", "d_sgt")).rule_id == "V-TURN-9"


def test_s_unknown_a_smoke_shooter_not_on_the_table():
    t = at_turn()
    assert t.refused("smoke_fired", **smoke("zz")).rule_id == "S-UNKNOWN"
    assert t.refused("smoke_fired", **smoke(officer="zz")).rule_id == "S-UNKNOWN"


def test_v_med_3_a_wounded_rifleman_fires_no_smoke():
    t = defender_turn()
    wound(t, "a1")
    t.next_turn(A="recon")
    assert t.refused("smoke_fired", **smoke("a1")).rule_id == "V-MED-3"


def test_v_med_3_a_wounded_officer_designates_no_smoke_point():
    t = defender_turn()
    t.fire("d6", "rifle", struck=[{"fighter": "a_lt", "die": D(20)}])
    t.next_turn(A="recon")
    assert t.refused("smoke_fired", **smoke(officer="a_lt")).rule_id == "V-MED-3"


def test_v_atgl_2_an_at_rifleman_fires_no_smoke():
    t = at_turn()
    t.add("force_mustered", side="attacker", fighters=[F("a_atr", "A", "at_rifleman")])
    assert t.refused("smoke_fired", **smoke("a_atr")).rule_id == "V-ATGL-2"


@pytest.mark.parametrize("cls", ["scout", "sniper", "sapper", "radio_operator", "medic"])
def test_v_smoke_2_only_the_rifleman_fires_smoke(cls):
    t = at_turn()
    t.add("force_mustered", side="attacker", fighters=[F("x", "A", cls)])
    assert t.refused("smoke_fired", **smoke("x")).rule_id == "V-SMOKE-2"


@pytest.mark.parametrize(("weapon", "gun", "ok"), [("gun", 3, True), ("gun", 2, False), ("aa_gun", 3, True),
                                                   ("aa_gun", 2, False), ("at_gun", 5, False),
                                                   ("vehicle_mg", 1, False), ("rocket_mortar", 1, True)])
def test_v_smoke_1_which_pieces_have_smoke(weapon, gun, ok):
    t = defender_turn()
    tank(t, "defender", "P", armour=1, gun=gun, weapon=weapon, kind="artillery")
    if ok:
        t.add("smoke_fired", **smoke("P", "d_lt"))
    else:
        assert t.refused("smoke_fired", **smoke("P", "d_lt")).rule_id == "V-SMOKE-1"


def test_v_smoke_1_the_minimum_gun_class_is_rules_data():
    t = defender_turn({"smoke_min_gun_class": 2})
    tank(t, "defender", "P", armour=1, gun=2, kind="artillery")
    t.add("smoke_fired", **smoke("P", "d_lt"))


def test_v_crew_4_a_piece_with_one_crewman_fires_no_smoke():
    t = defender_turn()
    tank(t, "defender", "P", armour=1, gun=3, kind="artillery", crew=1)
    assert t.refused("smoke_fired", **smoke("P", "d_lt")).rule_id == "V-CREW-4"


def test_v_vdmg_4_a_destroyed_piece_fires_no_smoke():
    t = at_turn()
    tank(t, "defender", "X2", armour=2, gun=3)
    t.fire("AT3", "gun", target="vehicle", target_id="X2", distance=5, hit=D(11))
    t.next_turn()
    assert t.refused("smoke_fired", **smoke("X2", "d_lt")).rule_id == "V-VDMG-4"


def test_v_smoke_8_the_designating_officer_is_of_one_s_own_side():
    t = at_turn()
    assert t.refused("smoke_fired", **smoke(officer="d_lt")).rule_id == "V-SMOKE-8"


@pytest.mark.parametrize(("dist", "ok"), [(20.0, True), (20.01, False)])
def test_v_smoke_8_the_officer_s_observation_distance_is_rules_data(dist, ok):
    t = at_turn({"observation_distance": {"officer": 20.0, "rifleman": 12.0}})
    if ok:
        t.add("smoke_fired", **smoke(dist=dist))
    else:
        assert t.refused("smoke_fired", **smoke(dist=dist)).rule_id == "V-SMOKE-8"


def test_v_crew_4_the_crew_is_checked_before_the_turn_for_smoke():
    """A piece with one crewman may move but not fire (V-CREW-4), and smoke is fire: the crew rule is cited
    first, out of turn too."""
    t = at_turn()
    tank(t, "defender", "P", armour=1, gun=3, kind="artillery", crew=1)
    assert t.refused("smoke_fired", **smoke("P", "d_lt")).rule_id == "V-CREW-4"
    tank(t, "defender", "P2", armour=1, gun=2, kind="artillery", crew=1)
    t.next_turn()
    assert t.refused("smoke_fired", **smoke("P2", "d_lt")).rule_id == "V-CREW-4"
