"""A battle's ruleset by its code (``rulesets.get``) and the living prisoners (``state.prisoners``)."""
from __future__ import annotations

import pytest

from battles.engine import rulesets
from battles.engine.errors import PayloadError
from battles.engine.fow.state import FowState
from battles.engine.state import BattleState, Fighter, prisoners


def test_a_ruleset_is_found_by_its_code_or_given_as_itself_and_none_is_v11_2():
    v11, fow = rulesets.get("v11.2"), rulesets.get("fow")
    assert rulesets.get() is v11 and rulesets.get(None) is v11
    assert rulesets.get(v11) is v11 and rulesets.get(fow) is fow
    assert (v11.code, v11.state_cls, v11.docs_file) == ("v11.2", BattleState, "docs/events.md")
    assert (fow.code, fow.state_cls, fow.docs_file) == ("fow", FowState, "docs/events-fow.md")
    assert isinstance(v11.new_state(), BattleState) and isinstance(fow.new_state(), FowState)


@pytest.mark.parametrize("code", ["v11", "FOW", "", 11, 2.5, ["fow"]])
def test_an_unknown_ruleset_is_bad_input_naming_the_field_and_the_known_codes(code):
    with pytest.raises(PayloadError) as caught:
        rulesets.get(code)
    e = caught.value
    assert e.field == "ruleset"
    assert e.message_ru == f"ruleset: неизвестные правила {code!r} (есть v11.2, fow)"
    assert e.message_en == f"ruleset: unknown ruleset {code!r} (known: v11.2, fow)"


def test_v_pow_1_the_living_prisoners_sorted_and_by_who_holds_them():
    s = BattleState()
    s.fighters["d2"] = Fighter("d2", "defender", captured=True, captor_side="attacker")
    s.fighters["d1"] = Fighter("d1", "defender", captured=True, captor_side="attacker")
    s.fighters["a1"] = Fighter("a1", "attacker", captured=True, captor_side="defender")
    s.fighters["d3"] = Fighter("d3", "defender", captured=True, captor_side="attacker", dead=True)
    s.fighters["d4"] = Fighter("d4", "defender")
    assert prisoners(s) == ["a1", "d1", "d2"]
    assert prisoners(s, "attacker") == ["d1", "d2"]
    assert prisoners(s, "defender") == ["a1"]
