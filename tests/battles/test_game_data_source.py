"""One source of game data (issue 8, section 1): the engine plays a new battle
under the infantry table and the roster rules the game master edits
(G-1 observation, attack and defence; G-3 fire distances by posture;
V-SCOUT-2; V-SMOKE-1), a battle in play keeps the values it started under,
and a rules setting can no longer hold a second copy of those numbers."""
import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from battles.gamedata import OWNED_KEYS, game_data_rules
from battles.models import RulesSetting
from battles.selectors import battle_state_get, rules_settings
from battles.services import NewEvent, battle_create, battle_event_append, battle_replay
from config.errors import RuleRefused
from rosters.models import InfantryClass, RosterRules
from rosters.services import game_data_row_save

pytestmark = pytest.mark.django_db


def D(v):  # noqa: N802 - a die entered from the table
    return {"value": v, "source": "entered"}


def edit(code, **values):
    """The game master edits a row of the infantry table (as the admin does)."""
    row = InfantryClass.objects.get(code=code)
    for k, v in values.items():
        setattr(row, k, v)
    game_data_row_save(row=row, changed=list(values))


def start(campaign, name="battle"):
    """A new battle: each side a squad (sergeant + rifleman) and a lieutenant
    outside it; the defender's squad dug in, his turn, fire phase next."""
    battle = battle_create(campaign=campaign, name=name)
    muster = [NewEvent("force_mustered", {
        "side": s, "units": [{"id": f"{s}-u", "commander": f"{s}-sgt"}],
        "fighters": [{"id": f"{s}-sgt", "unit": f"{s}-u", "cls": "officer", "rank": "sergeant"},
                     {"id": f"{s}-r", "unit": f"{s}-u", "cls": "rifleman"},
                     {"id": f"{s}-r2", "unit": f"{s}-u", "cls": "rifleman"},
                     {"id": f"{s}-lt", "unit": "", "cls": "officer", "rank": "lieutenant"}]})
        for s in ("defender", "attacker")]
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[
        *muster, NewEvent("battle_started", {"attacker": "A", "defender": "D"}),
        NewEvent("postures_declared", {"side": "defender", "units": {"defender-u": "dug_in"}})])
    return battle


def fire(battle, shooter, distance, die=15, target="attacker-r"):
    battle.refresh_from_db()
    return battle_event_append(battle_id=battle.id, expected_seq=battle.head_seq, events=[NewEvent("fire", {
        "shooter": shooter, "weapon": "rifle", "target": "fighters", "distance": distance,
        "struck": [{"fighter": target, "die": D(die)}]})])


def refused(battle, shooter, distance, **kw):
    with pytest.raises(RuleRefused) as exc:
        fire(battle, shooter, distance, **kw)
    return exc.value


def fighter_state(battle, fid):
    battle_replay(battle_id=battle.id)
    return battle_state_get(battle_id=battle.id).state["fighters"][fid]


# --- the engine decides by the infantry table ------------------------------------------
def test_g1_v_cmd_8_editing_the_observation_distance_changes_a_new_battle(campaign):
    fire(start(campaign, "before"), "defender-r", 7)  # 12 in by default: in sight
    edit("rifleman", observation_in=6)
    err = refused(start(campaign, "after"), "defender-r", 7)
    assert err.rule_id == "V-CMD-8"


def test_g3_v_cmd_11_editing_the_fire_distance_changes_a_new_battle(campaign):
    edit("rifleman", fire_dug_in=5)
    battle = start(campaign)
    assert refused(battle, "defender-r", 6).rule_id == "V-CMD-11"
    fire(battle, "defender-r", 5)


def test_g3_v_cmd_11_a_posture_without_fire_distance_refuses_fire(campaign):
    edit("rifleman", fire_dug_in=None)
    err = refused(start(campaign), "defender-r", 2)
    assert err.rule_id == "V-CMD-11" and "G-3" in err.message_en


def test_g1_g2_editing_attack_and_defence_changes_the_result(campaign):
    """G-2: wounded if d20 + attack - defence >= 11."""
    battle = start(campaign, "defaults")
    fire(battle, "defender-r", 5, die=9)
    assert not fighter_state(battle, "attacker-r")["wounded"]  # 9 + 0 - 0 < 11
    edit("rifleman", attack=3)
    battle = start(campaign, "attack 3")
    fire(battle, "defender-r", 5, die=9)
    assert fighter_state(battle, "attacker-r")["wounded"]  # 9 + 3 >= 11
    edit("rifleman", defence=2)
    battle = start(campaign, "attack 3, defence 2")
    fire(battle, "defender-r", 5, die=9)
    assert not fighter_state(battle, "attacker-r")["wounded"]  # 9 + 3 - 2 < 11


def test_a_battle_in_play_keeps_the_game_data_it_started_under(campaign):
    battle = start(campaign)
    edit("rifleman", fire_dug_in=5, observation_in=4)
    fire(battle, "defender-r", 7)  # still 8 in and 12 in: the snapshot
    battle.refresh_from_db()
    assert battle.rules["infantry_fire"]["rifleman"]["dug_in"] == 8.0
    assert battle.rules["observation_distance"]["rifleman"] == 12.0
    battle_replay(battle_id=battle.id, rebuild=True)
    assert battle_state_get(battle_id=battle.id).state["last_seq"] == battle.head_seq


def test_g1_officer_ranks_have_their_own_row(campaign):
    """Corporal..captain are one engine class (officer); each rank keeps its row."""
    edit("lieutenant", observation_in=20, fire_dug_in=30)
    edit("sergeant", fire_dug_in=30)
    rules = game_data_rules()
    assert rules["observation_distance"]["officer:lieutenant"] == 20.0
    assert rules["observation_distance"]["officer:sergeant"] == 12.0
    battle = start(campaign)
    fire(battle, "defender-lt", 15)  # the lieutenant's 20 in
    battle2 = start(campaign, "sergeant")
    assert refused(battle2, "defender-sgt", 15).rule_id == "V-CMD-8"  # the sergeant's 12 in


# --- the mapping ------------------------------------------------------------------------
def test_the_mapping_reads_every_class_posture_and_the_roster_rules():
    RosterRules.objects.update(smoke_min_gun_class=2)
    rules = game_data_rules()
    assert rules["infantry_fire"]["rifleman"] == {"dug_in": 8.0, "march": None, "recon": 8.0, "assault": 8.0}
    assert rules["infantry_fire"]["lmg_gunner"]["recon"] == 12.0  # the light_mg row
    assert rules["scout_observation"] == 24.0  # V-SCOUT-2: the scout's row
    assert rules["smoke_min_gun_class"] == 2  # V-SMOKE-1
    assert set(rules) == set(OWNED_KEYS)
    assert {"officer:corporal", "officer:sergeant", "officer:lieutenant", "officer:captain", "officer"} <= set(
        rules["attack"])


def test_an_unranked_row_gives_the_class_entry():
    InfantryClass.objects.create(code="assault_rifleman", name_ru="Штурмовик", name_en="Assault rifleman",
                                 category="rifleman", engine_class="rifleman", cost=1, observation_in=9, position=99)
    assert game_data_rules()["observation_distance"]["rifleman"] == 12.0, "the first row in the table's order wins"
    InfantryClass.objects.filter(code="assault_rifleman").update(position=0)
    InfantryClass.objects.filter(code="rifleman").update(position=1)
    assert game_data_rules()["observation_distance"]["rifleman"] == 9.0


def test_rules_settings_are_built_at_a_fixed_query_count(django_assert_num_queries):
    with django_assert_num_queries(3):
        rules_settings()
    for i in range(10):
        InfantryClass.objects.create(code=f"extra{i}", name_ru="x", name_en="x", category="officer", rank="captain",
                                     engine_class="officer", cost=1)
        RulesSetting.objects.create(key=["talk_distance", "height_bonus"][i % 2] if i < 2 else f"k{i}", value=1)
    with django_assert_num_queries(3):
        rules_settings()


# --- rules settings may not hold a second copy ------------------------------------------
@pytest.mark.parametrize("key", sorted(OWNED_KEYS))
def test_a_rules_setting_refuses_a_key_the_game_data_owns(key):
    from battles import engine

    row = RulesSetting(key=key, value=engine.DEFAULT_RULES[key])
    where = "roster rules" if key == "smoke_min_gun_class" else "infantry classes"
    where_ru = "правилах ростера" if key == "smoke_min_gun_class" else "классах пехотинцев"
    with translation.override("en"), pytest.raises(ValidationError) as exc:
        row.full_clean()
    assert where in " ".join(exc.value.message_dict["key"])
    with translation.override("ru"), pytest.raises(ValidationError) as exc:
        row.full_clean()
    assert where_ru in " ".join(exc.value.message_dict["key"])


def test_an_old_row_for_an_owned_key_is_ignored_and_shown_as_superseded(admin_client):
    row = RulesSetting.objects.create(key="attack", value={"rifleman": 5})  # from before: no clean ran
    RulesSetting.objects.create(key="talk_distance", value=7.0)
    rules = rules_settings()
    assert rules["attack"]["rifleman"] == 0 and rules["talk_distance"] == 7.0
    with translation.override("en"):
        page = admin_client.get("/admin/battles/rulessetting/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Superseded" in page or "Заменено" in page
    assert "/admin/rosters/infantryclass/" in page and "infantry_fire" in page
    change = admin_client.get(f"/admin/battles/rulessetting/{row.pk}/change/").content.decode()
    assert "/admin/rosters/infantryclass/" in change


# --- the admin and the API show where the engine's numbers live -------------------------
def test_infantry_class_admin_shows_and_edits_the_engine_class(admin_client):
    page = admin_client.get("/admin/rosters/infantryclass/").content.decode()
    assert "Класс в бою" in page or "class in battle" in page.lower()
    row = InfantryClass.objects.get(code="light_mg")
    form = admin_client.get(f"/admin/rosters/infantryclass/{row.pk}/change/").content.decode()
    assert 'name="engine_class"' in form and ("движок" in form or "battle engine" in form)


def test_game_data_api_includes_the_engine_class(client):
    classes = {c["code"]: c for c in client.get("/api/game-data/").json()["infantry_classes"]}
    assert classes["light_mg"]["engine_class"] == "lmg_gunner"
    assert classes["captain"]["engine_class"] == "officer" and classes["captain"]["rank"] == "captain"
