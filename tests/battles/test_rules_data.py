"""Rules data is game data the game master edits; a battle keeps the values it
is played under, so editing them never silently changes a battle's replay."""
import pytest
from django.core.exceptions import ValidationError

from battles import engine
from battles.models import Battle, RulesSetting
from battles.services import NewEvent, battle_create, battle_event_append, battle_replay, battle_rules_reapply
from config.errors import RuleRefused

START = NewEvent("battle_started", {"attacker": "A", "defender": "D"})


@pytest.mark.django_db
class TestRulesSettings:
    def test_a_setting_must_name_a_known_key_with_the_defaults_shape(self):
        with pytest.raises(ValidationError):
            RulesSetting(key="no_such_rule", value=1).full_clean()
        with pytest.raises(ValidationError):
            RulesSetting(key="test_success_min", value="eleven").full_clean()
        with pytest.raises(ValidationError):
            RulesSetting(key="command_distance", value={"general": 40}).full_clean()
        RulesSetting(key="command_distance", value={"captain": 30.0}).full_clean()

    def test_the_first_event_snapshots_the_rules_data(self, battle):
        RulesSetting.objects.create(key="talk_distance", value=8.0)
        battle_event_append(battle_id=battle.id, expected_seq=0, events=[START])
        battle.refresh_from_db()
        from battles.selectors import rules_settings

        assert battle.rules["talk_distance"] == 8.0 and battle.rules == rules_settings()
        RulesSetting.objects.filter(key="talk_distance").update(value=2.0)
        battle_event_append(battle_id=battle.id, expected_seq=1, events=[
            NewEvent("turn_ended", {"side": "defender", "turn": 1})])
        battle.refresh_from_db()
        assert battle.rules["talk_distance"] == 8.0, "editing game data must not change a battle in play"

    def test_partial_dict_settings_merge_with_the_default(self, db):
        from battles.selectors import rules_settings

        RulesSetting.objects.create(key="command_distance", value={"captain": 30.0})
        merged = rules_settings()["command_distance"]
        assert merged["captain"] == 30.0
        assert merged["lieutenant"] == engine.DEFAULT_RULES["command_distance"]["lieutenant"]

    def test_reapplying_rules_is_the_game_masters_explicit_choice(self, battle):
        battle_event_append(battle_id=battle.id, expected_seq=0, events=[START])
        battle_replay(battle_id=battle.id)
        RulesSetting.objects.create(key="talk_distance", value=7.0)
        battle_rules_reapply(battle_id=battle.id)
        assert Battle.objects.get(pk=battle.id).rules["talk_distance"] == 7.0

    def test_a_new_battle_follows_the_edited_rules(self, campaign):
        """V-CMD-11 fire distance as game data: a grenade at 3" is refused once the
        game master shortens its range below it. (A class's own small arm takes
        its distance from the infantry table instead: tests/battles/test_game_data_source.py.)"""
        key = "fire_distance"
        assert engine.DEFAULT_RULES[key]["grenade"] >= 3.0, "the default must allow the shot this test forbids"
        RulesSetting.objects.create(key=key, value={"grenade": 2.0})
        battle = battle_create(campaign=campaign, name="short range")
        muster = [NewEvent("force_mustered", {"side": s, "units": [{"id": f"{s}-u", "commander": f"{s}-o"}],
                                              "fighters": [{"id": f"{s}-o", "unit": f"{s}-u", "cls": "officer",
                                                            "rank": "sergeant"}]})
                  for s in ("defender", "attacker")]
        battle_event_append(battle_id=battle.id, expected_seq=0, events=[
            *muster, START, NewEvent("postures_declared", {"side": "defender", "units": {"defender-u": "dug_in"}})])
        with pytest.raises(RuleRefused) as exc:
            battle_event_append(battle_id=battle.id, expected_seq=4, events=[NewEvent("fire", {
                "shooter": "defender-o", "weapon": "grenade", "target": "fighters", "distance": 3,
                "hit": {"value": 15, "source": "entered"},
                "struck": [{"fighter": "attacker-o", "die": {"value": 15, "source": "entered"}}]})])
        assert exc.value.rule_id == "V-CMD-11"


@pytest.mark.django_db
def test_rules_settings_admin_marks_placeholders(admin_client):
    from battles.engine import rules_data

    key = next(iter(rules_data.PLACEHOLDERS))
    setting = RulesSetting.objects.create(key=key, value=engine.DEFAULT_RULES[key])
    page = admin_client.get(f"/admin/battles/rulessetting/{setting.pk}/change/").content.decode()
    assert rules_data.PLACEHOLDERS[key] in page
