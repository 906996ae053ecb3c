"""Pillboxes under fire (V-BUNK-1..5, V-BUNK-8): the men sheltered, the embrasure, the hit test, the reserve
and the spotter pillbox."""
import pytest

from .fire_helpers import corr, into, pillbox_table
from .table import D, F, at_turn, tank


@pytest.mark.parametrize(("die", "hits"), [(10, 0), (11, 1)])
def test_v_bunk_3_a_pillbox_hit_needs_the_hit_test(die, hits):
    t = at_turn()
    tank(t, "attacker", "G6", armour=4, gun=6)
    t.fire("G6", "gun", target="bunker", target_id="B", distance=10, hit=D(die))
    assert t.state.bunkers["B"].hits == hits


def test_v_bunk_4_5_the_reserve_is_rules_data_and_a_ruined_pillbox_takes_no_more_hits():
    t = at_turn({"bunker_reserve": 1})
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    tank(t, "attacker", "G6", armour=4, gun=6)
    tank(t, "attacker", "G7", armour=4, gun=6)
    tank(t, "attacker", "G8", armour=4, gun=6)
    t.fire("G6", "gun", target="bunker", target_id="B", distance=10, hit=D(11))
    assert (t.state.bunkers["B"].hits, t.state.bunkers["B"].light_cover, t.f("b1").dead) == (1, False, False)
    t.fire("G7", "gun", target="bunker", target_id="B", distance=10, hit=D(11))
    assert (t.state.bunkers["B"].hits, t.state.bunkers["B"].light_cover, t.f("b1").dead) == (2, True, True)
    assert t.f("G7_c").credit.kills == 1
    t.fire("G8", "gun", target="bunker", target_id="B", distance=10, hit=D(11))
    assert t.state.bunkers["B"].hits == 2


def test_v_bunk_1_the_pillbox_shelters_its_men_others_in_the_radius_are_struck():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("a_lmg", "lmg", distance=10, struck=[{"fighter": "b1", "die": D(20)}, {"fighter": "d1", "die": D(11)}])
    assert not t.f("b1").wounded and t.f("d1").wounded


@pytest.mark.parametrize(("die", "wounded"), [(11, False), (12, True)])
def test_v_bunk_2_a_sniper_at_an_embrasure_of_a_ruined_pillbox_meets_light_cover(die, wounded):
    t = at_turn()
    t.state.bunkers["B"].light_cover = True
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("a_snp", "sniper_rifle", distance=12, spot=D(11), struck=[{"fighter": "b1", "die": D(die), "embrasure": True}])
    assert t.f("b1").wounded is wounded


def test_v_bunk_1_a_vehicle_s_mg_at_an_embrasure_does_nothing():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("AP", "vehicle_mg", distance=5, spot=D(20), struck=[{"fighter": "b1", "die": D(20), "embrasure": True}])
    assert not t.f("b1").wounded


@pytest.mark.parametrize(("die", "wounded"), [(12, False), (13, True)])
def test_v_bunk_2_the_embrasure_counts_as_a_house_v_house_1(die, wounded):
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("a_snp", "sniper_rifle", distance=12, spot=D(11),
           struck=[{"fighter": "b1", "die": D(die), "embrasure": True, "light_cover": True}])
    assert t.f("b1").wounded is wounded


def test_v_bunk_8_a_spotter_pillbox_with_a_scout_corrects_once_per_turn_v_corr_6():
    t = pillbox_table()
    t.add("fire_corrected", **corr("P", "DH", "a1", distance=1))
    c = t.state.fire_corrections[-1]
    assert (c.corrector, c.shooter, c.target) == ("P", "DH", "a1")
    assert t.refused("fire_corrected", **corr("P", "DH", "a2", distance=1)).rule_id == "V-CORR-6"
    t.next_turn()
    t.next_turn()
    t.add("fire_corrected", **corr("P", "DH", "a2", distance=1))


def test_v_bunk_1_and_v_bunk_8_the_scout_inside_survives_a_hit_and_keeps_working_the_spotter():
    """The scout is invulnerable inside (V-BUNK-1), so he works the Spotter next turn (V-BUNK-8);
    a scout who is dead or captured no longer does
    (``test_v_bunk_8_a_scout_who_is_dead_or_captured_does_not_work_the_spotter``)."""
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


def test_v_bunk_2_only_a_sniper_at_an_embrasure_needs_the_spot_others_have_no_effect():
    t = at_turn()
    into(t, "defender", "b1", bunker="B")
    t.fire("a1", "rifle", struck=[{"fighter": "b1", "die": D(20), "embrasure": True}])
    assert not t.f("b1").wounded  # V-BUNK-1: only the sniper at the embrasure
    t.fire("a_snp", "sniper_rifle", distance=12, struck=[{"fighter": "b1", "die": D(20)}])
    assert not t.f("b1").wounded  # a sniper not at the embrasure: no spotting test needed, no effect


def test_v_bunk_2_reading_off_a_sniper_at_an_embrasure_needs_no_spotting_test():
    t = at_turn({"bunker_sniper_needs_spot": False})
    into(t, "defender", "b1", bunker="B")
    t.fire("a_snp", "sniper_rifle", distance=12, struck=[{"fighter": "b1", "die": D(13), "embrasure": True}])
    assert t.f("b1").wounded  # 13 - 2 >= 11, no spotting test with the reading switched off


@pytest.mark.parametrize("fate", ["dead", "captured"])
def test_v_bunk_8_a_scout_who_is_dead_or_captured_does_not_work_the_spotter(fate):
    """V-BUNK-8 (issue 28 clause audit): the Spotter works only while a scout is inside, a living and free
    one; the rest of the garrison does not stand in for him."""
    t = pillbox_table()
    t.add("force_mustered", side="defender", fighters=[F("d_rf", "D", bunker="P")])
    setattr(t.f("d_sc"), fate, True)
    refusal = t.refused("fire_corrected", **corr("P", "DH", "a1", distance=1))
    assert refusal.rule_id == "V-BUNK-8" and "scout" in refusal.message_en
