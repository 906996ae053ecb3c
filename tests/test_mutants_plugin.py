"""bench/mutants_plugin.py: a mutant's process starts with the engine's memo tables empty, so a
mutant of the code that fills them runs (issue 11: otherwise it could never be killed)."""
from __future__ import annotations

from battles import engine
from battles.engine import dice, events, schema, state
from battles.engine.fold import fold
from battles.engine.synthetic import synthetic_battle
from bench import mutants_plugin


def test_forget_memos_empties_every_table_and_they_refill():
    folded = fold(synthetic_battle(300, seed=5))  # fills the tables: the number checks, dice fields
    engine.parse_batch([(e.type, e.data, e.version) for e in synthetic_battle(300, seed=5)])
    engine.vocabulary()  # ... the schemas' annotations
    for e in synthetic_battle(300, seed=5):  # ... and the hints of the payloads with dice
        dice.fill_rolls(e.type, e.data, lambda sides: 1, ruleset="v11.2")  # (by the ruleset's code)
    assert schema._HINTS and schema._DECLARED and schema._NUMBER_CHECKS and events._BY_CODE
    emptied = mutants_plugin.forget_memos()
    assert emptied == sum(len(names) for names in mutants_plugin.MEMOS.values())
    for module, names in ((schema, ("_HINTS", "_DECLARED", "_NUMBER_CHECKS")),
                          (events, ("_BY_CODE",)), (dice, ("_DICE_FIELDS", "_DICE_IN"))):
        for name in names:
            assert getattr(module, name) == {}, f"{module.__name__}.{name}"
    # the engine still folds the same battle to the same state once the tables refill
    again = fold(synthetic_battle(300, seed=5))
    assert state.dump(again) == state.dump(folded)
    assert state.dump(state.load(type(again), state.dump(again))) == state.dump(folded)
    assert schema._NUMBER_CHECKS  # the replay parsed its payloads anew, checks included
