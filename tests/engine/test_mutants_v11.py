"""v11.2 engine: tests written to kill mutants that survived ``make mutants``
(docs/mutants.md). Each asserts behaviour the seed gives and cites its rule."""
import pytest

from battles.engine.rules.common import observation_distance
from battles.engine.state import Fighter

from .table import D, F, attacker_turn, standard


def mortar_turn(rules=None):
    """The defender's turn with its mortar DM (crew d_mc + d_mp) ready to fire."""
    t = standard(rules)
    t.postures("defender")
    return t


def test_v_house_2_a_mortar_hit_damages_a_house():
    """V-HOUSE-2 lists the mortar among the weapons that damage houses: a hit adds 1."""
    t = mortar_turn()
    t.fire("DM", "mortar", target="house", target_id="H", distance=20, hit=D(15))
    assert t.state.buildings["H"].damage == 1


def test_v_house_2_a_mortar_miss_does_not_damage_a_house():
    t = mortar_turn()
    t.fire("DM", "mortar", target="house", target_id="H", distance=20, hit=D(3))
    assert t.state.buildings["H"].damage == 0


@pytest.mark.parametrize(("dist", "height", "ok"), [(12.0, False, True), (12.01, False, False),
                                                    (16.0, True, True), (16.01, True, False)])
def test_v_terr_9_a_height_adds_4_inches_to_observation(dist, height, ok):
    """V-TERR-9: +4 in of observation on a height (G-1: a rifleman observes 12 in); the fire
    distance is out of the way (30 in), so V-CMD-8 (visual contact) is what decides."""
    t = attacker_turn(standard({"fire_distance": {"rifle": 30.0}}))
    data = dict(shooter="a1", weapon="rifle", target="fighters", distance=dist, on_height=height,
                struck=[{"fighter": "d1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-8"


def test_v_terr_9_observation_distance_on_a_height():
    f = Fighter(id="x", side="attacker", unit="A", cls="rifleman")
    rules = {"observation_distance": {"rifleman": 12.0}, "height_bonus": 4.0, "scout_observation": 24.0,
             "scout_height_bonus": True}
    assert observation_distance(f, rules) == 12.0
    assert observation_distance(f, rules, on_height=True) == 16.0


@pytest.mark.parametrize("later_kills", [True, False])
def test_v_med_1_two_wounds_in_one_turn_kill_whatever_g10_says(later_kills):
    """V-MED-1 is seed text; G-10 (a second wound in a later turn) is a placeholder the master may
    switch off. With G-10 off, two wounds in the same turn still kill."""
    t = attacker_turn(standard({"wounded_again_later_killed": later_kills}))
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    assert t.f("d1").wounded and not t.f("d1").dead
    t.fire("a2", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    assert t.f("d1").dead
    assert t.f("a2").credit.kills == 1


def test_g10_off_a_second_wound_in_a_later_turn_only_wounds_again():
    """G-10 off: the fighter wounded in turn 1 and again in turn 2 is wounded, not dead (V-MED-1 is
    only about one turn)."""
    t = attacker_turn(standard({"wounded_again_later_killed": False}))
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    t.next_turn()
    t.next_turn()
    t.fire("a2", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    assert t.f("d1").wounded and not t.f("d1").dead
    assert t.f("d1").wounded_turn == t.state.turn


def test_v_med_1_credits_count_every_wound_for_the_shooter_and_the_wounded():
    """The campaign's awards read these credits (V-FORM, G-10 off so the second wound only wounds)."""
    t = attacker_turn(standard({"wounded_again_later_killed": False}))
    t.fire("a_lmg", "lmg", struck=[{"fighter": "d1", "die": D(15)}, {"fighter": "d2", "die": D(15)}])
    assert t.f("a_lmg").credit.wounds == 2
    assert t.f("d1").credit.wounded == 1 and t.state.characters["char-fritz"].wounded == 1
    t.next_turn()
    t.next_turn()
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    assert t.f("a1").credit.wounds == 1 and t.state.characters["char-petr"].wounds == 1
    assert t.f("d1").credit.wounded == 2 and t.state.characters["char-fritz"].wounded == 2
    assert t.f("a1").credit.kills == 0
    assert t.f("d1").wounded_ply == t.state.ply


def test_v_med_5_a_fighter_wounded_again_after_recovering_is_not_still_recovering():
    """V-MED-5/6 with the reading ``wounded_may_act`` on: a wound clears the recovery mark, so the
    fighter is wounded (and may act by that reading), not 'recovered this turn'."""
    t = attacker_turn(standard({"wounded_may_act": True, "wounded_again_later_killed": False}))
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    t.next_turn()
    t.add("wound_test", fighter="d1", die=D(15))
    assert not t.f("d1").wounded and t.f("d1").recovering_ply == t.state.ply
    from battles.engine.rules.common import wound

    wound(t.state, t.f("d1"), t.f("a1"), {**t.rules, "wounded_again_later_killed": False})
    assert t.f("d1").wounded and t.f("d1").recovering_ply == -1


# --- vehicle capture (V-CAPT) and crews boarding (V-FLAME-4, V-CREW) -------------------------------------------
RING = {"a1": 2.0, "a2": 1.0, "a3": 1.5, "a4": 0.5, "a5": 2.0}


def test_v_capt_7_the_captors_unit_holds_the_prisoners_and_credits_add_up():
    """V-CAPT-7: the crew are prisoners of the first capturer's unit; two captures count two."""
    t = attacker_turn(standard())
    from .table import tank

    for vid in ("X", "Y"):
        tank(t, "defender", vid, armour=3, gun=0)
    for gun, target in (("G", "X"), ("H", "Y")):
        tank(t, "attacker", gun, armour=3, gun=3)
        t.fire(gun, "gun", target="vehicle", target_id=target, distance=5, hit=D(17))
    assert t.v("X").running_gear and t.v("Y").running_gear
    t.add("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=None, die=D(15))
    t.add("capture_attempted", vehicle="Y", infantry=RING, surrounded=True, nearest_friendly=None, die=D(15))
    assert t.f("X_c").captor_unit == "A" and t.f("X_c").captor_side == "attacker"
    assert t.f("a1").credit.vehicles_captured == 2
    assert t.f("a1").credit.prisoners_taken == 4  # both crews, credited to the first capturer
    assert t.f("X_c").credit.vehicles_lost == 1 and t.f("Y_c").credit.vehicles_lost == 1


def test_v_capt_3_a_wounded_capturer_is_refused_for_his_wound():
    t = attacker_turn(standard())
    from .table import tank

    tank(t, "defender", "X", armour=3, gun=0)
    t.state.fighters["a1"].wounded = True  # wounded earlier (given)
    err = t.refused("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=None,
                    die=D(15))
    assert err.rule_id == "V-MED-3"


def test_v_capt_3_only_enemy_infantry_captures():
    t = attacker_turn(standard())
    from .table import tank

    tank(t, "defender", "X", armour=3, gun=0)
    t.state.vehicles["X"].running_gear = True  # damaged earlier (given)
    err = t.refused("capture_attempted", vehicle="X", infantry={**RING, "d1": 1.0}, surrounded=True,
                    nearest_friendly=None, die=D(15))
    assert err.rule_id == "V-CAPT-3" and "d1" in err.message_en


def test_the_defender_captures_an_attackers_vehicle_in_the_defenders_turn():
    """V-CAPT-1: either side may capture; the capturing side is the vehicle's enemy."""
    t = standard()
    t.postures("defender")
    t.state.vehicles["AT3"].running_gear = True  # damaged earlier (given)
    ring = {f"d{i}": 1.0 for i in range(1, 6)}
    t.add("capture_attempted", vehicle="AT3", infantry=ring, surrounded=True, nearest_friendly=None, die=D(15))
    assert t.v("AT3").side == "defender" and t.v("AT3").captured


def test_an_aircraft_cannot_be_captured():
    from .table import tank

    t = attacker_turn(standard())
    tank(t, "defender", "AIR", armour=1, gun=0, kind="aircraft")
    err = t.refused("capture_attempted", vehicle="AIR", infantry=RING, surrounded=True, nearest_friendly=None,
                    die=D(15))
    assert err.rule_id == "S-TARGET"


def test_v_vdmg_4_no_crew_boards_a_destroyed_vehicle_and_no_one_boards_twice():
    t = attacker_turn(standard())
    t.state.vehicles["AP"].destroyed = True  # destroyed earlier (given)
    assert t.refused("crew_boarded", vehicle="AP", fighters=["a1"]).rule_id == "V-VDMG-4"
    err = t.refused("crew_boarded", vehicle="AT3", fighters=["a_pd"])  # already the APC's driver
    assert err.rule_id == "S-UNKNOWN" and "a_pd" in err.message_en


def test_v_med_5_a_fighter_recovered_this_turn_may_board_a_crew_it_is_a_move():
    t = attacker_turn(standard())
    t.state.fighters["a1"].recovering_ply = t.state.ply  # recovered this turn (given)
    t.add("crew_boarded", vehicle="AT3", fighters=["a1"])
    assert "a1" in t.v("AT3").crew and t.f("a1").aboard == "AT3"


def test_wounded_may_act_reading_lets_a_wounded_man_capture_and_board():
    """The reading ``wounded_may_act`` (V-MED-5/6) on: a wounded fighter is fit to capture and to board."""
    from .table import tank

    t = attacker_turn(standard({"wounded_may_act": True}))
    tank(t, "defender", "X", armour=3, gun=0)
    t.state.vehicles["X"].running_gear = True  # damaged earlier (given)
    t.state.fighters["a1"].wounded = True
    t.state.fighters["a6"].wounded = True
    t.add("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=None, die=D(15))
    assert t.v("X").side == "attacker"
    t.add("crew_boarded", vehicle="AT3", fighters=["a6"])
    assert "a6" in t.v("AT3").crew


def test_v_med_4_a_medic_named_without_a_reroll_saves_no_one():
    """V-MED-4: the medic's save is the re-roll; a first roll that passes is the fighter's own."""
    t = attacker_turn(standard())
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    t.next_turn()
    t.add("wound_test", fighter="d1", die=D(15), medic="d_med", medic_distance=1)
    assert not t.f("d1").wounded and t.f("d_med").credit.saves == 0


# --- second pass (a sampled run, docs/mutants.md) -------------------------------------------------------------
def test_v_mine_11_12_a_charge_credits_its_sapper_with_the_kills_and_the_damaged_house():
    """V-MINE-11: the men the charge kills are the sapper's kills; V-MINE-12: the house it wrecks (light
    cover, damage 3) is a building he damaged (campaign credits, V-RANK)."""
    from .test_vehicles_engineering import laid_mine

    t = laid_mine("charge", "C1")
    t.add("charge_detonated", charge="C1", sapper="d_sap", officer="d_sgt",
          victims=[{"fighter": "a1", "distance": 1.0}, {"fighter": "a2", "distance": 2.0}], objects=["H"])
    assert t.f("a1").dead and t.f("a2").dead
    assert t.f("d_sap").credit.kills == 2
    assert t.f("d_sap").credit.buildings_damaged == 1
    assert t.state.buildings["H"].damage == 3


def test_v_ride_disembarking_riders_leave_the_others_riding():
    """V-RIDE-2/3, V-TRANS-3: riders who get off are off the tank; the rest still ride it."""
    from .table import tank

    t = attacker_turn(standard())
    tank(t, "attacker", "T4", armour=4, gun=2)
    t.add("embarked", vehicle="T4", fighters=["a1", "a2"], role="riders")
    assert t.v("T4").riders == ["a1", "a2"]
    t.next_turn()
    t.next_turn(A="recon")
    t.add("vehicle_moved", vehicle="T4", distance=4)
    t.add("disembarked", vehicle="T4", fighters=["a1"], distance=1.0)
    assert t.v("T4").riders == ["a2"] and not t.f("a1").aboard and t.f("a2").aboard == "T4"


def test_a_battle_ends_with_its_winner_and_the_reason_the_table_gave():
    t = attacker_turn(standard())
    t.add("battle_ended", winner="defender", reason="Наступающие отошли.")
    assert (t.state.status, t.state.winner, t.state.end_reason) == ("ended", "defender", "Наступающие отошли.")


def test_who_names_the_side_in_words_and_by_its_name():
    """Refusals of a wrong recorder name who may record, in words (people read names, not enum values)."""
    from battles.engine.actors import GAME_MASTER, who

    t = attacker_turn(standard())
    ru, en = who(t.state, "attacker")
    assert ru.startswith("наступающая сторона") and en.startswith("the attacking side")
    assert who(t.state, "defender")[1].startswith("the defending side")
    assert who(t.state, GAME_MASTER) == ("только мастер", "the game master only")


@pytest.mark.parametrize(("kind", "gun_type", "gun_class", "weapon"), [
    ("tank", "howitzer", 3, "tank_howitzer"),  # V-GUN: a tank's howitzer fires as a tank gun with HE
    ("artillery", "howitzer", 3, "howitzer"),
    ("artillery", "rocket_mortar", 3, "rocket_mortar"),
    ("tank", "", 2, "gun"),
    ("car", "", None, "none"),
])
def test_roster_gun_types_map_to_the_engine_weapon(kind, gun_type, gun_class, weapon):
    """The roster and the engine agree on each piece's weapon (issue 11: one table)."""
    from battles.engine.weapons import roster_weapon

    assert roster_weapon(kind, gun_type, gun_class) == weapon


def test_g_12_a_class_or_rank_without_a_melee_bonus_adds_nothing():
    """G-12: the melee bonus is by class or rank, as the game master sets it; a class he left out adds 0."""
    from battles.engine.rules.infantry import melee_bonus

    rules = {"melee_bonus": {"sapper": 2, "sergeant": 1}}
    assert melee_bonus(Fighter(id="r", side="attacker", unit="A", cls="rifleman"), rules) == 0
    assert melee_bonus(Fighter(id="s", side="attacker", unit="A", cls="sapper"), rules) == 2
    assert melee_bonus(Fighter(id="g", side="attacker", unit="A", cls="rifleman", rank="sergeant"), rules) == 1


def test_v_trans_3_only_men_the_vehicle_carries_get_off_it():
    t = attacker_turn(standard())
    t.add("embarked", vehicle="AP", fighters=["a1"])
    t.next_turn()
    t.next_turn(A="recon")
    t.add("vehicle_moved", vehicle="AP", distance=4)
    assert t.refused("disembarked", vehicle="AP", fighters=["a2"], distance=1.0).rule_id == "V-TRANS-3"


def test_v_mine_9_a_tank_without_a_trawl_cannot_take_the_blast_on_one():
    from .table import tank
    from .test_vehicles_engineering import laid_mine

    t = laid_mine("at")
    tank(t, "attacker", "V", armour=3, gun=0)
    assert t.refused("mine_triggered", mine="M1", distance=0.5, vehicle="V", trawl=True).rule_id == "V-MINE-9"


def test_v_mine_12_a_charge_names_only_objects_on_the_table():
    from .test_vehicles_engineering import laid_mine

    t = laid_mine("charge", "C1")
    err = t.refused("charge_detonated", charge="C1", sapper="d_sap", officer="d_sgt", victims=[], objects=["nowhere"])
    assert err.rule_id == "S-UNKNOWN"


def test_v_crew_a_dead_crewman_does_not_leave_his_piece():
    """V-CREW, V-MED-1: the dead do not act; the refusal says so (S-DEAD), in both languages."""
    from .test_weapon_table_aa_crews import at_turn_defender

    t = at_turn_defender()
    t.f("d_gp").dead = True
    assert t.refused("crew_dismounted", vehicle="DG", fighters=["d_gc", "d_gp"], distance=1).rule_id == "S-DEAD"


@pytest.mark.parametrize(("crew", "rule"), [(["RM_c", "RM_p"], None), (["RM_c"], "V-CREW-4"),
                                            (["RM_p"], "V-CREW-4"), ([], "V-CREW-5")])
def test_v_crew_5_smoke_is_fire_a_piece_needs_two_crew_one_an_officer(crew, rule):
    """V-CREW-5: firing smoke (V-SMOKE-1) is firing: it needs two crew, one an officer; one crewman left
    may only move the piece (V-CREW-4); with nobody the firing rule is cited (V-CREW-5)."""
    from .table import tank
    from .test_weapon_table_aa_crews import at_turn_defender, smoke

    t = at_turn_defender()
    tank(t, "defender", "RM", armour=1, gun=3, weapon="howitzer", kind="artillery", drive="towed")
    gone = [m for m in ("RM_c", "RM_p") if m not in crew]
    if gone:
        t.add("crew_dismounted", vehicle="RM", fighters=gone, distance=1)
    if rule:
        assert t.refused("smoke_fired", **smoke(t, "RM")).rule_id == rule
    else:
        t.add("smoke_fired", **smoke(t, "RM"))
        assert t.v("RM").smoke_used == 1


def test_g_4_a_postures_defence_counts_against_fire():
    """G-4: the posture table's defence (0 in every posture by default) is added to the target's defence."""
    from battles.engine.rules_data import DEFAULT_RULES

    hard = {name: {**p, "defence": 20} for name, p in DEFAULT_RULES["postures"].items()}
    for postures, wounded in ((None, True), (hard, False)):
        t = attacker_turn(standard({"postures": postures} if postures else None))
        t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
        assert bool(t.f("d1").wounded or t.f("d1").dead) is wounded


def test_v_trans_6_only_carried_infantry_fire_the_mounted_mg():
    t = attacker_turn(standard())
    err = t.refused("fire", shooter="a1", weapon="vehicle_mg", target="fighters", distance=10,
                    struck=[{"fighter": "d1", "die": D(11)}])
    assert err.rule_id == "V-TRANS-6"


def test_a_dead_fighter_is_not_a_target_and_an_unknown_one_is_not_found():
    t = attacker_turn(standard())
    t.f("d1").dead = True
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(15)}])
    assert err.rule_id == "S-TARGET"
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "nobody", "die": D(15)}])
    assert err.rule_id == "S-UNKNOWN"


def test_each_turn_is_recorded_with_its_number_side_and_events_for_the_battle_report():
    t = attacker_turn(standard())
    t.end_turn()
    last_seq = t.state.last_seq
    record = t.state.turns[-1]
    assert (record.number, record.side) == (t.state.turn, t.state.side_to_move)
    assert (record.first_seq, record.last_seq) == (last_seq + 1, last_seq)  # nothing recorded in it yet
    previous = t.state.turns[-2]
    assert previous.side != record.side and previous.last_seq == last_seq


def test_v_sap_4_a_sapper_who_fired_in_turn_two_does_not_finish_his_work():
    t = attacker_turn(standard())
    t.add("sapper_approached", sapper="a_sap", object="W", distance=4)
    t.next_turn()
    t.next_turn(A="recon")
    t.fire("a_sap", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(3)}])
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "V-SAP-4"


def test_v_mine_2_a_vehicle_of_the_mines_own_side_does_not_set_it_off():
    from .table import tank
    from .test_vehicles_engineering import laid_mine

    t = laid_mine("at")
    tank(t, "defender", "DV", armour=3, gun=0)
    assert t.refused("mine_triggered", mine="M1", distance=0.5, vehicle="DV").rule_id == "V-MINE-2"


def test_v_test_6_the_new_commander_is_a_man_of_the_unit():
    t = attacker_turn(standard())
    err = t.refused("morale_test", unit="A", die=D(16), officer_distances={"a_sgt": 12.5, "a_lt": 18.5},
                    new_commander="d1")
    assert err.rule_id == "V-TEST-6"


def test_moving_through_a_wire_section_that_is_not_there_is_refused():
    t = attacker_turn(standard())
    assert t.refused("fighters_moved", side="attacker", fighters=["a1"], distance=1,
                     wire=["nowhere"]).rule_id == "S-UNKNOWN"


def test_v_test_3_a_surrendered_unit_declares_no_posture_and_an_unknown_unit_is_not_found():
    t = standard()
    t.state.units["D"].morale = "surrendered"
    assert t.refused("postures_declared", side="defender", units={"D": "dug_in"}).rule_id == "V-TEST-3"
    assert t.refused("postures_declared", side="defender", units={"nowhere": "dug_in"}).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("field", "bad", "said"), [("on_height", "yes", "a boolean"), ("distance", "far", "a number")])
def test_a_mistyped_field_is_named_with_the_type_it_needs(field, bad, said):
    """Bad input gets a clear 400 naming the field (STYLE.md): a boolean or a number given as text."""
    from battles.engine import PayloadError, decide

    t = attacker_turn(standard())
    data = {"shooter": "a1", "weapon": "rifle", "target": "fighters", "distance": 5,
            "struck": [{"fighter": "d1", "die": D(15)}], field: bad}
    with pytest.raises(PayloadError) as exc:
        decide(t.state, [("fire", data, None)], first_seq=t.state.last_seq + 1)
    assert exc.value.field == f"events[0].data.{field}"
    assert exc.value.message_en.endswith(f"expected {said}") and field in exc.value.message_ru


def test_nothing_but_battle_started_is_recorded_before_the_battle_starts():
    from battles.engine import BattleState, RuleViolation, decide

    with pytest.raises(RuleViolation) as exc:
        decide(BattleState(), [("turn_ended", {"side": "attacker", "turn": 1}, None)], first_seq=1)
    assert exc.value.rule_id == "S-NOT-STARTED"


def test_v_turn_10_no_vehicle_moves_once_the_fire_has_begun():
    """V-TURN-10 then V-TURN-11: moves come before fire in a turn, for vehicles as for men."""
    t = standard()
    t.postures("defender", D="recon")
    t.fire("d2", "rifle", struck=[{"fighter": "a1", "die": D(3)}])
    assert t.refused("vehicle_moved", vehicle="DG", distance=1).rule_id == "V-TURN-10"


# --- third pass: the open survivors of the second pass's sample (docs/mutants.md) ----------------
def test_v_off_4_a_captain_does_not_order_a_corporals_fire_team():
    """V-OFF-4: a captain orders lieutenants (or sergeants when there are none); a corporal's fire
    team (A2) is neither, and it is not the captain's own unit."""
    t = attacker_turn(standard())
    err = t.refused("order_given", officer="a_cpt", unit="A2", distance=1)
    assert err.rule_id == "V-OFF-4"
    assert t.state.units["A2"].under != "a_cpt"


def test_v_smoke_3_a_rifleman_outside_any_squad_has_no_smoke_rounds():
    """V-SMOKE-3: smoke rounds are the squad's two (a fire team shares its squad's); a rifleman
    outside any unit has no squad, so no rounds: his smoke is refused at the limit."""
    t = attacker_turn(standard())
    t.add("force_mustered", side="attacker", fighters=[F("lone")])
    err = t.refused("smoke_fired", shooter="lone", officer="a_sgt", officer_distance=5, smoke="s1")
    assert err.rule_id == "V-SMOKE-3"
    assert "s1" not in t.state.smoke


# --- third pass: survivors of a fresh sample (seed 2, docs/mutants.md) -----------------------------------
def test_s_unknown_a_player_does_not_correct_the_enemys_battery():
    """V-CORR: an officer corrects his own side's battery; the enemy's mortar is not his to direct."""
    t = attacker_turn(standard())
    err = t.refused("fire_corrected", corrector="a_sgt", shooter="DM", target="H", distance=1)
    assert err.rule_id == "S-UNKNOWN"
    assert t.state.fire_corrections == []


def test_v_med_4_a_medic_is_credited_with_every_save():
    """V-MED-4: each successful re-roll with the medic is one save to his credit (the campaign's awards)."""
    t = attacker_turn(standard())
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    t.fire("a2", "rifle", struck=[{"fighter": "d2", "die": D(15)}])
    t.next_turn()
    for fid in ("d1", "d2"):
        t.add("wound_test", fighter=fid, die=D(5), medic="d_med", medic_distance=1, reroll=D(14))
    assert not t.f("d1").wounded and not t.f("d2").wounded
    assert t.f("d_med").credit.saves == 2


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


def test_v_mine_4_the_wounds_of_an_ap_mine_are_its_layers():
    """V-MINE-4: the AP mine wounds the infantryman; the wound is credited to the sapper who laid it."""
    t = _mine_laid("ap")
    t.add("mine_triggered", mine="M", distance=1, victims=[{"fighter": "a1", "distance": 1}])
    assert t.f("a1").wounded
    assert t.f("d_sap").credit.wounds == 1 and t.f("a1").credit.wounded == 1


def test_v_ride_7_the_wounds_of_an_at_mine_to_riders_are_its_layers():
    """V-RIDE-7: an AT mine wounds every rider; each wound is credited to the sapper who laid it."""
    t = _mine_laid("at")
    t.add("embarked", vehicle="AT3", fighters=["a1", "a2"], role="riders")
    t.add("mine_triggered", mine="M", distance=1, vehicle="AT3")
    assert t.f("a1").wounded and t.f("a2").wounded
    assert t.f("d_sap").credit.wounds == 2


def test_v_ride_7_v_med_1_a_wounded_rider_killed_by_an_at_mine_is_its_layers_kill():
    """A rider already wounded dies of the mine's wound (V-MED-1): the kill is the layer's credit."""
    t = _mine_laid("at")
    t.add("embarked", vehicle="AT3", fighters=["a1", "a2"], role="riders")
    t.f("a1").wounded = True
    t.add("mine_triggered", mine="M", distance=1, vehicle="AT3")
    assert t.f("a1").dead and t.f("a2").wounded and not t.f("a2").dead
    assert (t.f("d_sap").credit.kills, t.f("d_sap").credit.wounds) == (1, 1)


@pytest.mark.parametrize(("event", "data", "field"), [
    ("mine_triggered", {"mine": "M", "distance": -0.5}, "distance"),  # V-MINE-2: a distance is never negative
    ("correction", {"voids_seq": 0, "reason": "r"}, "voids_seq"),      # V-TURN-13: seqs start at 1
    ("fighters_moved", {"side": "attacker", "fighters": ["a1"], "distance": 1, "floors": 21}, "floors"),  # V-HOUSE-11
    ("order_given", {"officer": "a_lt", "unit": "A", "radio_operators": ["a_rad", "a_rad2", "a1"],
                     "talk_distances": [1, 1, 1]}, "radio_operators"),  # V-RADIO-4: two radio operators
    ("postures_declared", {"side": "attacker", "units": {1: "assault"}}, "units.1"),  # a key is a unit's id
])
def test_a_value_outside_its_schema_bounds_is_bad_input_naming_the_field(event, data, field):
    """Bad input gets a clear 400 naming the field (STYLE.md): a number under the schema's minimum or
    over its maximum, a list longer than its limit, a key that is not a string."""
    from battles.engine import PayloadError, decide

    t = attacker_turn(standard())
    with pytest.raises(PayloadError) as exc:
        decide(t.state, [(event, data, None)], first_seq=t.state.last_seq + 1)
    assert exc.value.field == f"events[0].data.{field}"
    assert field in exc.value.message_ru and field in exc.value.message_en


def test_v_house_5_a_ruined_house_takes_no_more_damage_nor_credits_it():
    """V-HOUSE-2..5: each hit adds 1 up to 3 (ruined: light cover); a hit on a ruined house changes
    nothing, and is no building damaged to the shooter's credit."""
    t = mortar_turn()
    for _ in range(4):
        t.fire("DM", "mortar", target="house", target_id="H", distance=20, hit=D(15))
        t.next_turn()
        t.next_turn()
    assert t.state.buildings["H"].damage == 3 and t.state.buildings["H"].light_cover
    assert sum(f.credit.buildings_damaged for f in t.state.fighters.values()) == 3


def test_v_vdmg_4_no_one_embarks_on_a_destroyed_vehicle():
    t = attacker_turn(standard())
    t.state.vehicles["AT3"].destroyed = True  # destroyed earlier (given)
    assert t.refused("embarked", vehicle="AT3", fighters=["a1"], role="riders").rule_id == "V-VDMG-4"


def test_an_unknown_ruleset_is_bad_input_naming_the_ruleset_field():
    """Bad input gets a clear 400 naming the field (STYLE.md): a battle's ruleset is v11.2 or fow."""
    from battles.engine import PayloadError, decide

    t = attacker_turn(standard())
    with pytest.raises(PayloadError) as exc:
        decide(t.state, [("turn_ended", {"side": "attacker", "turn": 1}, None)], first_seq=t.state.last_seq + 1,
               ruleset="chess")
    assert exc.value.field == "ruleset"
    assert "'chess'" in exc.value.message_en and "fow" in exc.value.message_ru


def test_v_atgl_3_an_at_grenade_has_no_damage_radius_for_vehicles():
    """V-ATGL-3: an AT grenade launcher strikes one target; it names no vehicles in a radius."""
    t = attacker_turn(standard())
    err = t.refused("fire", shooter="a_at", weapon="at_grenade_launcher", target="vehicle", target_id="DT4",
                    distance=5, hit=D(11), vehicles_struck=[{"vehicle": "DM", "distance": 1}])
    assert err.rule_id == "V-ATGL-3"


def test_v_vdmg_5_the_shooter_who_outclasses_the_armour_is_credited_with_the_vehicle():
    """V-VDMG-5 (class 5 > armour 4: destroyed); the vehicle is the AT grenadier's credit (campaign awards)."""
    t = attacker_turn(standard())
    t.fire("a_at", "at_grenade_launcher", target="vehicle", target_id="DT4", distance=5, hit=D(11))
    assert t.v("DT4").destroyed
    assert t.f("a_at").credit.vehicles_destroyed == 1


def test_s_die_a_rifle_hit_needs_its_roll():
    t = attacker_turn(standard())
    assert t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                     struck=[{"fighter": "d1"}]).rule_id == "S-DIE"


def test_v_cmd_1_an_order_states_the_officers_distance():
    t = attacker_turn(standard())
    assert t.refused("order_given", officer="a_lt", unit="A").rule_id == "V-CMD-1"


def test_s_target_no_one_takes_his_own_side_prisoner():
    """V-POW-1: a prisoner is an enemy."""
    t = attacker_turn(standard())
    assert t.refused("prisoner_taken", captor="a1", prisoner="a2", distance=1).rule_id == "S-TARGET"


def test_v_test_3_a_unit_whose_every_man_is_captured_has_surrendered():
    """V-TEST-3 with surrender_per_fighter off (rules data): the enemy near one man takes the whole unit;
    with no man left free the unit has surrendered, it does not retreat."""
    t = attacker_turn(standard({"surrender_per_fighter": False}))
    t.add("morale_test", unit="A", die=D(1), officer_distances={"a_sgt": 12.5, "a_lt": 18.5},
          enemy_distances={"a1": 5})
    assert all(f.captured for f in t.state.fighters.values() if f.unit == "A" and f.cls != "sniper")
    assert t.state.units["A"].morale == "surrendered"


def test_v_morale_2_a_retreating_unit_declares_march_until_another_officer():
    """V-MORALE-2 (V-TEST-4): a unit that retreated keeps the march posture until the result lapses."""
    t = attacker_turn(standard())
    t.state.units["A"].morale = "retreat"  # the morale test's result (given)
    t.next_turn()
    t.end_turn()
    assert t.refused("postures_declared", side="attacker", units={"A": "assault"}).rule_id == "V-MORALE-2"
    t.postures(A="march")


def test_s_unknown_a_side_declares_no_posture_for_the_enemys_fighter():
    t = standard()
    err = t.refused("postures_declared", side="defender", fighters={"a1": "assault"})
    assert err.rule_id == "S-UNKNOWN"


def test_s_unknown_a_fighter_mustered_into_a_unit_that_does_not_exist():
    t = attacker_turn(standard())
    err = t.refused("force_mustered", side="attacker", fighters=[F("x1", "NOWHERE")])
    assert err.rule_id == "S-UNKNOWN"
    assert "x1" not in t.state.fighters


def test_an_event_stored_at_an_older_version_is_upcast_when_loaded():
    """The event log is append-only: a payload stored at an older schema version is upcast at replay,
    one at the current version is loaded as it is (no event type has an upcaster yet: a test registry)."""
    from dataclasses import dataclass

    from battles.engine.events import Event, Registry

    @dataclass(frozen=True, slots=True)
    class Ping:
        count: int

    ping = Registry("test-upcast").event_type("ping", Ping, version=2)

    @ping.upcaster(1)
    def _from_v1(data):
        return {"count": data["n"]}

    assert ping.load(Event(1, "ping", {"n": 3}, version=1)).count == 3
    assert ping.load(Event(2, "ping", {"count": 4}, version=2)).count == 4
