"""The recorder policy (battles/engine/actors.py) is complete and pure."""

from battles import engine
from battles.engine import actors
from battles.engine.state import BattleState, Fighter, Mine

from .table import attacker_turn, standard


def test_every_registered_type_has_a_recorder_policy():
    """A new event type without a policy fails here (and in tests/battles/test_authorization.py)."""
    assert set(actors.POLICY) == set(engine.REGISTRY)
    for name, policy in actors.POLICY.items():
        assert policy.kind in actors.KINDS, name
        assert policy.text_ru and policy.text_en and policy.text_ru != policy.text_en, name


def test_an_unknown_piece_is_left_to_the_engine_checks():
    state = BattleState(status="running", side_to_move="defender")
    fire = engine.lookup("fire").parse({"shooter": "ghost", "weapon": "rifle", "target": "fighters", "distance": 1,
                                        "struck": [{"fighter": "x", "die": {"value": 3, "source": "entered"}}]})
    assert actors.recorder(state, "fire", fire) == actors.UNKNOWN
    assert actors.authorize(state, "fire", fire, side="attacker") is True


def test_v_mine_14_an_enemy_unrevealed_mine_is_refused_as_missing_and_a_revealed_one_as_not_yours():
    import pytest

    state = BattleState(status="running", attacker="A", defender="D", side_to_move="attacker")
    state.mines["m1"] = Mine("m1", "defender")
    state.fighters["a_sap"] = Fighter("a_sap", "attacker", cls="sapper")
    p = engine.lookup("mine_revealed").parse({"mine": "m1", "sapper": "a_sap", "distance": 5})
    with pytest.raises(engine.RuleViolation) as exc:
        actors.authorize(state, "mine_revealed", p, side="attacker")
    assert exc.value.rule_id == "S-UNKNOWN"
    state.mines["m1"].revealed = True
    with pytest.raises(actors.NotYours) as denied:
        actors.authorize(state, "mine_revealed", p, side="attacker")
    assert denied.value.allowed == "defender" and "(D)" in denied.value.message_en
    assert actors.authorize(state, "mine_revealed", p, side="defender") is False


def test_who_names_the_side_in_words_and_by_its_name():
    """Refusals of a wrong recorder name who may record, in words (people read names, not enum values)."""
    from battles.engine.actors import GAME_MASTER, who

    t = attacker_turn(standard())
    ru, en = who(t.state, "attacker")
    assert ru.startswith("наступающая сторона") and en.startswith("the attacking side")
    assert who(t.state, "defender")[1].startswith("the defending side")
    assert who(t.state, GAME_MASTER) == ("только мастер", "the game master only")
