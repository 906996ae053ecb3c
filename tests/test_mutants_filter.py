"""The rewording filter of ``make mutants`` (bench/mutants.py, docs/mutants.md): which mutants
only change a message's letters and are reported apart. Pure AST work on source texts laid out
as mutmut writes them (``f__mutmut_orig`` and its mutants), so mutmut need not be installed."""
from pathlib import Path

from bench import mutants

HELPERS = '''
def refuse(rule: str, ru: str, en: str): ...
def _no_other_action(t, state, what_ru: str, what_en: str): ...
def _hidden(attr: str, what_ru: str, what_en: str): ...
class Report:
    def add(self, rule_id: str, ru: str, en: str, unit=None): ...
'''

ORIG = '''
    if tr.where == "off_table":
        refuse("F-TRAIN-14", "Нет.", "No.")
    _no_other_action(t, state, "стрелять", "shoot")
    d = {"rifleman": 1}
    _hidden("mine", "Мины", "mine")
    why = "Во взводе нет ни одного отделения."
    report.add("V-PLT-1", "Взвод " "без отделений.", "A platoon " "without squads.")
    return d["rifleman"], why
'''

# mutant number: (the original text, its mutation, is it a rewording)
MUTATIONS = {
    1: ('"off_table":', '"XXoff_tableXX":', False),       # a value the code compares
    2: ('"F-TRAIN-14"', '"f-train-14"', False),            # a rule ID
    3: ('"Нет."', '"XXНет.XX"', True),                     # a one-word message, Russian
    4: ('"No."', '"NO."', True),                           # ... and English
    5: ('"стрелять"', '"СТРЕЛЯТЬ"', True),                 # one word passed to a *_ru parameter
    6: ('"shoot"', '"XXshootXX"', True),                   # ... and to a *_en parameter
    7: ('{"rifleman": 1}', '{"XXriflemanXX": 1}', False),  # a dict key
    8: ('d["rifleman"]', 'd["RIFLEMAN"]', False),          # a key the code looks up
    9: ('"Нет."', 'None', False),                          # a message replaced by None
    10: ('"Мины"', '"МИНЫ"', False),                       # _hidden: its text must equal S-UNKNOWN's
    11: ('"Во взводе нет ни одного отделения."', '"XXВо взводе нет ни одного отделения.XX"', True),  # prose
    12: ('"Во взводе нет ни одного отделения."', '""', False),  # prose emptied: not a rewording
    13: ('"без отделений."', '"XXбез отделений.XX"', True),  # one piece of a concatenated message
    14: ('"A platoon "', '"a platoon "', True),
    15: ('"V-PLT-1"', '"XXV-PLT-1XX"', False),             # the rule ID of a report line
    16: ('"No."', '"No!"', False),                         # not one of mutmut's rewordings
}


def _source() -> str:
    out = "def x_check__mutmut_orig(state, p, tr, t, report):" + ORIG
    for n, (old, new, _) in MUTATIONS.items():
        assert ORIG.count(old) >= 1
        out += f"\ndef x_check__mutmut_{n}(state, p, tr, t, report):" + ORIG.replace(old, new, 1)
    return out


def test_only_message_literals_reworded_count_as_rewordings():
    params = mutants.message_params({"helpers.py": HELPERS})
    found = mutants.message_mutant_names(_source(), "m", params)
    assert found == {f"m.x_check__mutmut_{n}" for n, (_, _, wording) in MUTATIONS.items() if wording}


def test_message_parameters_come_from_the_names_ru_en():
    params = mutants.message_params({"helpers.py": HELPERS})
    assert params["refuse"] == {1, 2, "ru", "en"}
    assert params["_no_other_action"] == {2, 3, "what_ru", "what_en"}
    assert params["add"] == {1, 2, "ru", "en"}  # self is not a position
    assert "Report" not in params  # no __init__, no annotated fields


def test_a_name_defined_twice_keeps_only_the_message_positions_both_share():
    other = "def refuse(rule: str, ru: str, code: str): ...\n"
    params = mutants.message_params({"a.py": HELPERS, "b.py": other})
    assert params["refuse"] == {1, "ru"}


def test_the_engine_and_the_roster_pass_messages_as_ru_and_en():
    root = Path(mutants.ROOT)
    files = [*sorted((root / mutants.ENGINE).rglob("*.py")), *sorted((root / mutants.ROSTER).rglob("*.py"))]
    params = mutants.message_params({str(f): f.read_text(encoding="utf-8") for f in files})
    assert {1, 2} <= params["refuse"]
    assert 0 not in params["refuse"]  # the rule ID
    assert {2, 3} <= params["_require_on_table"]
