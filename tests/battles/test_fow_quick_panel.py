"""The FoW quick panel (issue 25, section 5): the common actions of the side to
move as short forms that offer only what the rules allow now, the numbers
beside each choice from the engine's own checks, and payloads the engine
accepts. The shot form rolls exactly the dice the rules give (G-F1 Rate of
Fire: 2 stationary, 1 after moving; F-DBL-10 doubled) instead of offering six
and letting the engine refuse two."""
from __future__ import annotations

import pytest
from django.utils import translation

from battles import engine
from battles.table import recording_fow
from battles.table.choices import Table
from tests.engine.fow.table import Table as FowTable
from tests.engine.fow.table import d

NAMES = {"a1": "Стрелки №1", "a2": "Стрелки №2", "A1": "Стрелковый взвод", "t1": "Т-34 №1", "is2": "ИС-2",
         "AT": "Танковый взвод", "d1": "Гренадеры №1", "d2": "Гренадеры №2", "D1": "Гренадеры"}
SIDES = {"attacker": "РККА", "defender": "Вермахт"}


class Role:
    def __init__(self, side="", gm=False):
        self.side, self.is_game_master, self.may_record = side, gm, True


@pytest.fixture(autouse=True)
def _russian():
    with translation.override("ru"):
        yield


def table_of(fow: FowTable, side: str = "attacker") -> Table:
    return Table(engine.state_to_json(fow.state), side, NAMES, SIDES)


def form(fow: FowTable, form_id: str, data: dict | None = None, side: str = "attacker"):
    bound = {f"{form_id}-{k}": v for k, v in data.items()} if data is not None else None
    return recording_fow.build(form_id, bound, table=table_of(fow, side), rules=None)


def accepted(fow: FowTable, f) -> None:
    """The form's payload goes through the engine's append gate (rolled dice filled as the service does)."""
    assert f.is_valid(), f.errors
    data = engine.fill_rolls(f.event_type, f.payload(), lambda sides: sides, ruleset="fow")
    fow.add((f.event_type, data))


def test_g_f1_the_shooters_are_offered_with_the_dice_they_roll_now():
    fow = FowTable()
    fow.add(("team_moved", {"team": "t1", "distance": 6}))
    labels = dict(form(fow, "fow_shot").fields["shooter"].choices)
    assert labels["t1"] == "Т-34 №1, Танковый взвод — 1 куб." and labels["a1"] == "Стрелки №1, Стрелковый взвод — 2 куб."
    assert set(dict(form(fow, "fow_shot").fields["target"].choices)) == {"", "d1", "d2"}  # only the enemy


def test_g_f1_a_service_roll_is_exactly_the_dice_the_rules_give():
    fow = FowTable()
    f = form(fow, "fow_shot", {"shooter": "a1", "target": "d1", "kind": "direct", "dice__source": "rolled",
                               "distance": "12", "hits": "1", "result": "destroyed"})
    assert f.is_valid(), f.errors
    assert f.payload()["dice"] == [{"source": "rolled"}] * 2
    accepted(fow, f)
    assert fow.t("d1").destroyed


def test_g_f1_entered_faces_must_be_as_many_as_the_rules_give_before_anything_is_sent():
    fow = FowTable()
    fow.add(("team_moved", {"team": "t1", "distance": 6}))
    bad = form(fow, "fow_shot", {"shooter": "t1", "target": "d1", "kind": "direct", "dice__source": "entered",
                                 "dice__faces": "5 2"})
    assert not bad.is_valid()
    assert bad.errors["dice__faces"] == ["Стрелок бросает 1 куб. (G-F1): значений от 1 до 6 нужно ровно 1."]
    good = form(fow, "fow_shot", {"shooter": "t1", "target": "d1", "kind": "direct", "dice__source": "entered",
                                  "dice__faces": "5"})
    accepted(fow, good)
    assert [(x["value"], x["source"]) for x in fow.events[-1].data["dice"]] == [(5, "entered")]


def test_f_dbl_10_the_target_that_moved_at_the_double_is_marked_and_doubles_the_dice():
    fow = FowTable()
    fow.add(("team_moved", {"team": "a1", "distance": 12, "at_the_double": True}))
    fow.end_turn()
    f = form(fow, "fow_shot", side="defender")
    assert "кубиков вдвое больше" in dict(f.fields["target"].choices)["a1"]
    f = form(fow, "fow_shot", {"shooter": "d1", "target": "a1", "kind": "direct", "dice__source": "rolled"},
             side="defender")
    accepted(fow, f)
    assert len(fow.events[-1].data["dice"]) == 4


def test_g_f1_f_dbl_1_the_move_form_states_each_teams_reach_and_holds_it():
    fow = FowTable()
    f = form(fow, "fow_move")
    assert dict(f.fields["team"].choices)["is2"] == "ИС-2, Танковый взвод — до 8″, С Удвоенной Скоростью до 16″"
    assert not form(fow, "fow_move", {"team": "is2", "distance": "9"}).is_valid()
    assert form(fow, "fow_move", {"team": "is2", "distance": "9", "at_the_double": "on"}).is_valid()
    too_far = form(fow, "fow_move", {"team": "is2", "distance": "16.5", "at_the_double": "on"})
    assert not too_far.is_valid() and too_far.errors["distance"] == ["Не дальше 16″ (F-DBL-1)."]
    accepted(fow, form(fow, "fow_move", {"team": "is2", "distance": "16", "at_the_double": "on"}))
    assert "is2" not in dict(form(fow, "fow_move").fields["team"].choices)  # it has moved


def test_f_dbl_7_a_pinned_platoon_is_told_before_sending_at_the_double():
    fow = FowTable()
    fow.add(("status_set", {"subject": "A1", "status": "pinned"}))
    assert dict(form(fow, "fow_move").fields["team"].choices)["a1"].endswith("взвод Прижат Огнём")
    f = form(fow, "fow_move", {"team": "a1", "distance": "4", "at_the_double": "on"})
    assert not f.is_valid() and "F-DBL-7" in f.errors["at_the_double"][0]


def test_dig_in_go_to_ground_and_assault_offer_only_who_may_and_are_accepted():
    fow = FowTable()
    accepted(fow, form(fow, "fow_dig", {"platoon": "A1", "die__source": "entered", "die__value": "5"}))
    assert fow.t("a1").dug_in  # F-DIG-4
    fow.add(("team_shot", {"shooter": "t1", "target": "d1", "dice": [d(3), d(3)]}))
    assert set(dict(form(fow, "fow_ground").fields["teams"].choices)) == {"a1", "a2", "is2"}  # F-DIG-16: dug in too
    accepted(fow, form(fow, "fow_ground", {"teams": ["is2"]}))
    accepted(fow, form(fow, "fow_assault", {"teams": ["t1"], "against": "D1"}))


def test_f_dig_9_the_dig_in_form_says_how_the_table_marks_dug_in_teams():
    help_text = str(form(FowTable(), "fow_dig").fields["platoon"].help_text)
    assert help_text == ("Окопавшихся отмечают маркером Окапывания у Командного отделения взвода или у каждой "
                         "команды (F-DIG-9).")


def test_f_dig_10_a_failed_dig_in_is_offered_for_the_reroll_and_the_rolled_reroll_is_accepted():
    supply = {"id": "P", "kind": "other", "teams": [{"id": "sup", "kind": "vehicle", "pioneer_supply": True}]}
    fow = FowTable(platoons_a=({"id": "A1", "kind": "infantry", "teams": [{"id": "a1", "kind": "infantry"}]}, supply))
    assert dict(form(fow, "fow_dig_reroll").fields["platoon"].choices) == {"": "—"}  # nothing failed yet
    accepted(fow, form(fow, "fow_dig", {"platoon": "A1", "die__source": "entered", "die__value": "2"}))
    assert set(dict(form(fow, "fow_dig_reroll").fields["platoon"].choices)) == {"", "A1"}
    accepted(fow, form(fow, "fow_dig_reroll", {"platoon": "A1", "pioneer_supply_distance": "2",
                                                "die__source": "rolled"}))
    assert fow.t("a1").dug_in and fow.state.tests[-1].purpose == "dig_in_reroll"  # the service rolled a 6
    assert set(dict(form(fow, "fow_dig_reroll").fields["platoon"].choices)) == {""}  # re-rolled once


def test_the_side_to_move_gets_the_quick_forms_and_the_generic_shot_form_is_gone():
    fow = FowTable()
    state = engine.state_to_json(fow.state)
    from battles.table.recording import events_allowed

    allowed = events_allowed(state=state, role=Role("attacker"))
    quick, full = recording_fow.form_ids(allowed, state, Role("attacker"), table_of(fow), None)
    assert quick == ["fow_move", "fow_shot", "fow_assault", "fow_dig", "fow_ground", "fow_step",
                     "quick_turn"]  # no train
    assert "team_shot" not in full and "team_moved" in full and "status_set" in full
    waiting = events_allowed(state=state, role=Role("defender"))
    assert recording_fow.form_ids(waiting, state, Role("defender"), table_of(fow, "defender"), None)[0] == []


def test_the_unused_teams_are_those_that_neither_moved_shot_nor_assaulted():
    fow = FowTable()
    fow.add(("team_moved", {"team": "a1", "distance": 3}))
    fow.add(("team_shot", {"shooter": "t1", "target": "d1", "dice": [d(3), d(3)]}))
    assert recording_fow.unused(table_of(fow), None) == ["ИС-2, Танковый взвод", "Стрелки №2, Стрелковый взвод"]


def test_an_english_reader_gets_the_panel_in_english():
    fow = FowTable()
    with translation.override("en"):
        f = form(fow, "fow_shot")
        assert dict(f.fields["shooter"].choices)["a1"] == "Стрелки №1, Стрелковый взвод — 2 dice"
        assert f.fields["hits"].label == "Hits (the table decides, G-F1)"
        assert recording_fow.title("fow_move") == "Move (or At the Double)"


def test_a_bailed_out_or_dug_in_team_says_so_beside_its_name():
    fow = FowTable()
    fow.add(("status_set", {"subject": "t1", "status": "bailed_out"}))
    fow.add(("dig_in_attempted", {"platoon": "A1", "die": d(6)}))
    shooters = dict(form(fow, "fow_shot").fields["shooter"].choices)
    assert shooters["t1"] == "Т-34 №1, Танковый взвод · Покинутый (Bailed Out) — 2 куб."
    assert shooters["a1"] == "Стрелки №1, Стрелковый взвод · Окопанный (Dug In) — 1 куб."  # F-DIG-6


@pytest.mark.django_db
def test_f_train_railway_events_are_offered_only_in_a_battle_with_a_train():
    from types import SimpleNamespace

    from battles.table.recording import TRAIN_TYPES, events_allowed

    role = SimpleNamespace(may_record=True, is_game_master=False, side="attacker")
    without = events_allowed(state={"ruleset": "fow", "status": "running", "side_to_move": "attacker"}, role=role)
    with_train = events_allowed(state={"ruleset": "fow", "status": "running", "side_to_move": "attacker",
                                       "trains": {"t": {}}}, role=role)
    assert not TRAIN_TYPES & set(without) and TRAIN_TYPES <= set(with_train)
    assert "team_moved" in without and "passengers_changed" in without


def test_g_f1_the_forms_follow_the_steps_of_the_turn_and_end_the_current_step():
    """G-F1 (the turn sequence, issue 28): once the Shooting Step has begun the panel no longer offers a move or
    a Dig In (F-DIG-1), and once the Assault Step has, no shot; «End the Step» ends the current one."""
    fow = FowTable()
    state = engine.state_to_json(fow.state)
    from battles.table.recording import events_allowed

    def quick() -> list[str]:
        state = engine.state_to_json(fow.state)
        allowed = events_allowed(state=state, role=Role("attacker"))
        return recording_fow.form_ids(allowed, state, Role("attacker"), table_of(fow), None)[0]

    assert {"fow_move", "fow_dig", "fow_step"} <= set(quick()) and state["step"] == "movement"
    step = form(fow, "fow_step", {"step": "movement"})
    assert dict(step.fields["step"].choices) == {"movement": "Шаг Движения (Movement Step)"}
    accepted(fow, step)
    assert fow.state.step == "shooting"
    assert "fow_move" not in quick() and "fow_dig" not in quick() and "fow_shot" in quick()
    accepted(fow, form(fow, "fow_step", {"step": "shooting"}))
    assert fow.state.step == "assault"
    assert "fow_shot" not in quick() and "fow_ground" not in quick() and "fow_step" not in quick()
    assert "fow_assault" in quick()
