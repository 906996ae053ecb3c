"""A battle is replayed by its campaign's ruleset: a FoW campaign's battle folds
with the FoW engine, a v11.2 battle is unaffected, and each refuses the other's
event types with a clear error."""
import pytest
from django.urls import reverse

from battles import engine
from battles.models import BattleProjection
from battles.services import NewEvent, battle_create, battle_event_append, battle_replay
from config.errors import InvalidInput, RuleRefused

FOW_START = NewEvent("battle_started", {"attacker": "Red", "defender": "Blue", "ruleset": "fow", "units": "cm"})
FORCE = NewEvent("force_mustered", {"side": "attacker", "platoons": [
    {"id": "A1", "kind": "infantry", "name": "Стрелковый взвод", "teams": [{"id": "a1", "kind": "infantry"}]}]})


@pytest.fixture
def fow_battle(db):
    from campaign.models import Campaign

    return battle_create(campaign=Campaign.objects.create(name="FoW", ruleset="fow"), name="Бронепоезд")


def append(battle, events):
    return battle_event_append(battle_id=battle.id, events=events, expected_seq=None, as_game_master=True)


@pytest.mark.django_db
def test_a_fow_campaigns_battle_folds_with_the_fow_engine(fow_battle):
    append(fow_battle, [FOW_START, FORCE, NewEvent("dig_in_attempted", {"platoon": "A1", "die": {"source": "rolled"}})])
    battle_replay(battle_id=fow_battle.id, rebuild=True)
    proj = BattleProjection.objects.get(battle=fow_battle)
    assert proj.state["ruleset"] == "fow" and proj.state["measure"] == "cm"
    assert proj.engine_version == engine.engine_version("fow")
    assert 1 <= proj.state["tests"][0]["rolls"][0] <= 6  # a d6 rolled by the service
    assert proj.state["teams"]["a1"]["dug_in"] == proj.state["tests"][0]["passed"]


@pytest.mark.django_db
def test_the_fow_projection_rebuilt_from_the_log_equals_the_incremental_one(fow_battle):
    append(fow_battle, [FOW_START, FORCE])
    battle_replay(battle_id=fow_battle.id)
    append(fow_battle, [NewEvent("team_moved", {"team": "a1", "distance": 30, "at_the_double": True})])
    assert not battle_replay(battle_id=fow_battle.id).rebuilt  # folded on from the stored projection
    incremental = BattleProjection.objects.get(battle=fow_battle).state
    battle_replay(battle_id=fow_battle.id, rebuild=True)
    assert BattleProjection.objects.get(battle=fow_battle).state == incremental
    assert incremental["teams"]["a1"]["double_ply"] == 0


@pytest.mark.django_db
def test_a_v11_type_is_refused_in_a_fow_battle_and_the_other_way_round(fow_battle, battle):
    append(fow_battle, [FOW_START])
    with pytest.raises(InvalidInput) as exc:
        append(fow_battle, [NewEvent("fire", {})])
    assert "v11.2" in exc.value.message_en
    with pytest.raises(InvalidInput) as exc:
        append(battle, [NewEvent("dig_in_attempted", {})])
    assert "fow" in exc.value.message_en


@pytest.mark.django_db
def test_a_fow_rule_refusal_names_its_f_rule(fow_battle):
    append(fow_battle, [FOW_START, FORCE])
    with pytest.raises(RuleRefused) as exc:
        append(fow_battle, [NewEvent("team_moved", {"team": "a1", "distance": 31, "at_the_double": True})])
    assert exc.value.rule_id == "F-DBL-1"


@pytest.mark.django_db
def test_a_v11_battle_is_unaffected(battle):
    append(battle, [NewEvent("battle_started", {"attacker": "A", "defender": "D"})])
    proj = BattleProjection.objects.get(battle=battle)
    assert proj.state["ruleset"] == "v11.2" and proj.engine_version == engine.ENGINE_VERSION


@pytest.mark.django_db
def test_event_types_api_serves_each_rulesets_vocabulary(client, fow_battle, battle):
    fow = client.get(reverse("api-event-types") + "?ruleset=fow").json()
    assert fow["ruleset"] == "fow" and "dig_in_attempted" in {t["type"] for t in fow["results"]}
    v11 = client.get(reverse("api-event-types")).json()
    assert "fire" in {t["type"] for t in v11["results"]} and "dig_in_attempted" not in {t["type"] for t in v11["results"]}
    assert client.get(reverse("api-event-types") + "?ruleset=nope").status_code == 400
    own = client.get(reverse("api-battle-event-types", args=[fow_battle.id])).json()
    assert own["ruleset"] == "fow" and "team_moved" in {t["type"] for t in own["results"]}
    assert client.get(reverse("api-battle", args=[fow_battle.id])).json()["ruleset"] == "fow"
    assert client.get(reverse("api-battle", args=[battle.id])).json()["ruleset"] == "v11.2"


@pytest.mark.django_db
def test_a_fow_battle_page_shows_platoons_teams_and_fow_sentences(client, fow_battle):
    import re

    named = NewEvent("force_mustered", {"side": "attacker", "platoons": [
        {"id": "A1", "kind": "infantry", "name": "Стрелковый взвод",
         "teams": [{"id": "a1", "kind": "infantry", "name": "Стрелки Петрова"}]}]})
    append(fow_battle, [FOW_START, named, NewEvent("dig_in_attempted", {"platoon": "A1", "die": {"value": 5, "source": "entered"}})])
    battle_replay(battle_id=fow_battle.id)
    page = client.get(reverse("battle-detail", args=[fow_battle.id]))
    assert page.status_code == 200
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.content.decode()))
    assert "Стрелковый взвод" in text and "Стрелки Петрова" in text and "Окопанный (Dug In)" in text
    assert "Бой начался (Flames of War)" in text and "обороняющиеся (V-TURN-8)" not in text  # not v11.2's
    assert "Стрелковый взвод (пехотных отделений — 1)" in text
    assert "Стрелковый взвод: попытка Окопаться вместо движения, тест на Умение — с кубика за столом 5" in text


@pytest.mark.django_db
def test_a_fow_battle_report_counts_teams_and_platoons_show_no_v11_posture(client, fow_battle):
    """The report table counts a FoW battle's teams (v11.2 counts fighters); a platoon has no
    v11.2 posture, so its header shows none."""
    import re

    from battles.table.report import final_state

    force = NewEvent("force_mustered", {"side": "attacker", "platoons": [
        {"id": "A1", "kind": "infantry", "name": "Стрелковый взвод",
         "teams": [{"id": "a1", "kind": "infantry"}, {"id": "a2", "kind": "infantry"}]},
        {"id": "T1", "kind": "tank", "name": "Танки", "teams": [{"id": "t1", "kind": "tank", "armoured": True}]}]})
    append(fow_battle, [FOW_START, force])
    battle_replay(battle_id=fow_battle.id)
    state = BattleProjection.objects.get(battle=fow_battle).state
    attacker = next(row for row in final_state(state) if row["side"] == "attacker")
    assert (attacker["mustered"], attacker["alive"], attacker["dead"], attacker["vehicles"]) == (3, 3, 0, 1)
    html = client.get(reverse("battle-detail", args=[fow_battle.id])).content.decode()
    summary = re.search(r"<summary><strong>Стрелковый взвод</strong>.*?</summary>", html, re.S).group(0)
    assert "положение" not in summary and "posture" not in summary
