"""Houses under fire (V-HOUSE-1..10, V-TERR-9, V-TERR-11, V-COVER-2, G-9): house defence, damage and credit,
the men inside, the spotting test and the dug-in distance."""
import pytest

from battles.engine.rules.common import observation_distance
from battles.engine.state import Fighter

from .fire_helpers import into, rifle, shot
from .table import D, F, at_turn, attacker_turn, defender_turn, standard, tank


def in_house_dug_in(rules, cls="hmg_gunner"):
    t = standard({"observation_distance": {cls: 30.0}, **rules})
    t.postures("defender", D="dug_in")
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", cls, building="H")])
    return t


def mortar_turn(rules=None):
    """The defender's turn with its mortar DM (crew d_mc + d_mp) ready to fire."""
    t = standard(rules)
    t.postures("defender")
    return t


@pytest.mark.parametrize(("dist", "ok"), [(18.0, True), (18.01, False)])
def test_v_house_10_set_reading_keeps_a_greater_class_distance(dist, ok):
    t = in_house_dug_in({})
    data = dict(shooter="h1", weapon="hmg", target="fighters", distance=dist, struck=[{"fighter": "a1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


@pytest.mark.parametrize(("dist", "ok"), [(14.0, True), (14.01, False)])
def test_v_house_10_the_dug_in_house_distance_is_rules_data(dist, ok):
    t = in_house_dug_in({"house_dug_in_fire_distance": 14.0}, "rifleman")
    data = dict(shooter="h1", weapon="rifle", target="fighters", distance=dist, struck=[{"fighter": "a1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


@pytest.mark.parametrize(("dist", "ok"), [(16.0, True), (16.01, False)])
def test_v_house_10_dug_in_in_a_house_on_a_height_v_terr_9(dist, ok):
    t = in_house_dug_in({}, "rifleman")
    data = dict(shooter="h1", weapon="rifle", target="fighters", distance=dist, on_height=True,
                struck=[{"fighter": "a1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


@pytest.mark.parametrize(("dist", "ok"), [(5.0, True), (5.01, False)])
def test_v_terr_9_the_height_bonus_is_rules_data_and_adds_to_the_class_table(dist, ok):
    t = at_turn({"infantry_fire": {"rifleman": {"recon": 3.0}}, "height_bonus": 2.0})
    data = dict(rifle(), distance=dist, on_height=True)
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


def test_v_house_10_dug_in_outside_a_house_keeps_the_weapon_distance():
    t = defender_turn()
    assert t.refused("fire", **dict(rifle("d1", "a1"), distance=8.01)).rule_id == "V-CMD-11"
    t.add("fire", **dict(rifle("d1", "a1"), distance=8.0))


# --- houses and pillboxes ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("die", "damage"), [(10, 0), (11, 1)])
def test_v_house_2_a_house_is_damaged_on_the_hit_test_and_credited(die, damage):
    t = at_turn()
    t.fire("AH", "howitzer", target="house", target_id="H", distance=30, hit=D(die))
    assert t.state.buildings["H"].damage == damage
    assert t.f("a_bo").credit.buildings_damaged == damage  # the howitzer's officer


@pytest.mark.parametrize(("weapon", "damage"), [("at_gun", 1), ("aa_gun", 1), ("gun", 1)])
def test_v_house_2_every_class_6_gun_damages_a_house(weapon, damage):
    t = at_turn()
    tank(t, "attacker", "G6", armour=1, gun=6, weapon=weapon, kind="artillery")
    t.fire("G6", weapon, target="house", target_id="H", distance=10, hit=D(11))
    assert t.state.buildings["H"].damage == damage


def test_v_house_2_a_class_5_gun_does_not_damage_a_house():
    t = at_turn()
    tank(t, "attacker", "G5", armour=1, gun=5, weapon="at_gun", kind="artillery")
    t.fire("G5", "at_gun", target="house", target_id="H", distance=10, hit=D(20))
    assert t.state.buildings["H"].damage == 0


@pytest.mark.parametrize(("die", "hits"), [(10, 0), (11, 1)])
def test_v_terr_11_a_flamethrower_at_infantry_in_a_pillbox_hits_it_on_the_g2_roll(die, hits):
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B"), F("b2", "D", bunker="B")])
    t.fire("a_fl", "flamethrower", distance=4, struck=[{"fighter": "b1", "die": D(die)}, {"fighter": "b2", "die": D(20)}])
    assert t.state.bunkers["B"].hits == hits  # one hit for the shot, whoever else is struck
    assert not t.f("b1").wounded and not t.f("b2").wounded


@pytest.mark.parametrize(("die", "hits"), [(10, 0), (11, 1)])
def test_v_terr_11_a_heavy_howitzer_at_infantry_in_a_pillbox_hits_it_on_the_aim_point(die, hits):
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    tank(t, "attacker", "HH", armour=1, gun=5, weapon="heavy_howitzer", kind="artillery")
    t.fire("HH", "heavy_howitzer", distance=30, hit=D(die), target_id="p", struck=[{"fighter": "b1", "die": D(1)}])
    assert t.state.bunkers["B"].hits == hits and not t.f("b1").wounded


@pytest.mark.parametrize(("die", "damage", "wounded"), [(10, 0, False), (11, 1, True)])
def test_v_terr_11_v_house_3_a_mortar_hit_on_infantry_in_a_house_damages_it_and_strikes_the_target(die, damage,
                                                                                                  wounded):
    t = defender_turn()
    t.add("force_mustered", side="attacker", fighters=[F("h1", "A", building="H"), F("h2", "A", building="H")])
    t.fire("DM", "mortar", distance=20, hit=D(die), target_id="h1", spot=D(11),
           struck=[{"fighter": "h1", "die": D(13)}, {"fighter": "h2", "die": D(20)}])
    assert t.state.buildings["H"].damage == damage
    assert t.f("h1").wounded is wounded and not t.f("h2").wounded  # V-HOUSE-3: only the target
    # V-HOUSE-2 through V-TERR-11: the house's damage is the mortar crew's credit, as a shot at the house
    assert [f.id for f in t.state.fighters.values() if f.credit.buildings_damaged] == (["d_mc"] if damage else [])


def test_v_house_3_the_target_s_own_roll_with_house_defence_decides():
    t = defender_turn()
    t.add("force_mustered", side="attacker", fighters=[F("h1", "A", building="H")])
    t.fire("DM", "mortar", distance=20, hit=D(15), target_id="h1", spot=D(11), struck=[{"fighter": "h1", "die": D(12)}])
    assert t.state.buildings["H"].damage == 1 and not t.f("h1").wounded  # 12 - 2 < 11


def test_v_house_4_a_second_damage_by_infantry_fire_wounds_all_inside_but_no_extra_for_the_target():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H"), F("h2", "D", building="H")])
    t.fire("AH", "howitzer", target="house", target_id="H", distance=30, hit=D(15))
    t.fire("a_fl", "flamethrower", distance=4, spot=D(11), struck=[{"fighter": "h1", "die": D(20)}])
    assert t.state.buildings["H"].damage == 2
    assert t.f("h1").wounded and t.f("h2").wounded and not t.f("h1").dead


def test_v_house_9_a_failed_spotting_test_spares_only_the_men_in_the_house():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    t.fire("a_lmg", "lmg", distance=10, spot=D(10),
           struck=[{"fighter": "h1", "die": D(20)}, {"fighter": "d1", "die": D(11)}])
    assert not t.f("h1").wounded and t.f("d1").wounded


def test_g9_everywhere_a_sniper_s_failed_spot_does_not_matter():
    t = at_turn({"spotting_test_everywhere": True})
    t.fire("a_snp", "sniper_rifle", distance=12, spot=D(3), struck=[{"fighter": "d1", "die": D(11)}])
    assert t.f("d1").wounded


def test_g9_everywhere_a_failed_spot_in_a_pillbox_changes_nothing_and_a_spot_into_a_ruin_is_not_needed():
    t = at_turn({"spotting_test_everywhere": True})
    t.state.buildings["H"].light_cover = True
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    t.fire("a1", "rifle", spot=D(3), struck=[{"fighter": "h1", "die": D(12)}])
    assert t.f("h1").wounded  # a ruined house is light cover: the spotting test binds no one in it


@pytest.mark.parametrize(("die", "wounded"), [(12, False), (13, True)])
def test_v_house_1_the_house_defence_is_rules_data(die, wounded):
    t = at_turn({"house_defence": 1, "light_cover_defence": 0})
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    t.fire("a_snp", "sniper_rifle", distance=12, struck=[{"fighter": "h1", "die": D(die - 1)}])
    assert t.f("h1").wounded is wounded


@pytest.mark.parametrize(("die", "wounded"), [(12, False), (13, True)])
def test_v_cover_2_the_light_cover_defence_is_rules_data(die, wounded):
    t = at_turn({"light_cover_defence": 2})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die), "light_cover": True}])
    assert t.f("d1").wounded is wounded


def test_v_cover_2_light_cover_does_not_add_to_the_house_defence():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    t.fire("a_snp", "sniper_rifle", distance=12, struck=[{"fighter": "h1", "die": D(13), "light_cover": True}])
    assert t.f("h1").wounded  # 13 - 2 >= 11: +2 only, not +3


def test_v_house_2_each_damage_adds_to_the_shooter_s_credit_and_v_house_5_caps_at_3():
    t = at_turn({"house_damage_per_hit": 2})
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=4, hit=D(11))
    h = t.state.buildings["H"]
    assert (h.damage, h.light_cover, t.f("h1").wounded, t.f("h1").dead) == (2, False, True, False)
    t.next_turn()
    t.next_turn(A="recon")
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=4, hit=D(11))
    h = t.state.buildings["H"]
    assert (h.damage, h.light_cover, t.f("h1").dead) == (3, True, True)
    assert t.f("a_fl").credit.buildings_damaged == 2 and t.f("a_fl").credit.kills == 1


def test_v_house_4_the_dead_and_the_captured_inside_are_not_wounded_again():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H"), F("h2", "D", building="H")])
    t.state.fighters["h2"].captured = True
    t.fire("AH", "howitzer", target="house", target_id="H", distance=30, hit=D(15))
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=4, hit=D(15))
    assert t.f("h1").wounded and not t.f("h2").wounded
    assert t.f("a_fl").credit.wounds == 1


def test_v_house_9_a_vehicle_firing_into_a_house_needs_the_spotting_test():
    t = at_turn()
    into(t, "defender", "h1", building="H")
    err = t.refused("fire", **shot("AP", "vehicle_mg", [{"fighter": "h1", "die": D(20)}]))
    assert err.rule_id == "V-HOUSE-9"
    t.fire("AP", "vehicle_mg", spot=D(11), struck=[{"fighter": "h1", "die": D(13)}])
    assert t.f("h1").wounded  # 13 - 2 >= 11 (V-HOUSE-1)


def test_v_house_9_one_struck_fighter_in_a_house_is_enough_to_need_the_test():
    t = at_turn()
    into(t, "defender", "h1", building="H")
    struck = [{"fighter": "h1", "die": D(20), "distance": 0.0}, {"fighter": "d1", "die": D(20), "distance": 0.5}]
    assert t.refused("fire", **shot("a_lmg", "lmg", struck, distance=10)).rule_id == "V-HOUSE-9"
    struck.reverse()
    assert t.refused("fire", **shot("a_lmg", "lmg", struck, distance=10)).rule_id == "V-HOUSE-9"


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
