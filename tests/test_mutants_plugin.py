"""bench/mutants_plugin.py: a mutant's process starts with the engine's memo tables empty, so a
mutant of the code that fills them runs (issue 11: otherwise it could never be killed)."""
from __future__ import annotations

from battles import engine
from battles.engine import dice, events, schema, state
from battles.engine.fold import fold
from battles.engine.synthetic import synthetic_battle
from bench import mutants_plugin


def test_forget_memos_empties_every_table_and_each_types_builder_and_they_refill():
    folded = fold(synthetic_battle(300, seed=5))  # fills the tables: builders, hints
    engine.parse_batch([(e.type, e.data, e.version) for e in synthetic_battle(300, seed=5)])  # ... the parsers'
    engine.vocabulary()  # ... and the schemas'
    for name in ("_BUILDERS",):
        assert getattr(events, name)
    assert schema._HINTS and schema._DECLARED and schema._UNKNOWN
    built = [t for r in events._REGISTRIES for t in r.values() if t._build is not None]
    assert built
    emptied = mutants_plugin.forget_memos()
    assert emptied == sum(len(names) for names in mutants_plugin.MEMOS.values())
    for module, names in ((schema, ("_HINTS", "_DECLARED", "_UNKNOWN")),
                          (events, ("_BUILDERS", "_BY_CODE")), (dice, ("_DICE_FIELDS", "_DICE_IN"))):
        for name in names:
            assert getattr(module, name) == {}, f"{module.__name__}.{name}"
    assert all(t._build is None for r in events._REGISTRIES for t in r.values())
    # the engine still folds the same battle to the same state once the tables refill
    again = fold(synthetic_battle(300, seed=5))
    assert state.dump(again) == state.dump(folded)
    assert state.dump(state.load(type(again), state.dump(again))) == state.dump(folded)
    assert events._BUILDERS and schema._HINTS
