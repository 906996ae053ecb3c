"""The battle page's recording forms serve FoW event types through the same
code path: every FoW type builds a form with worded labels (no raw keys), its
d6 dice, and selects of the battle's teams and platoons by their names."""
import pytest

from battles import engine
from battles.table.choices import Table
from battles.table.forms import EventForm
from battles.table.labels import field_label
from battles.table.recording import events_allowed
from tests.engine.fow.table import Table as FowTable


class Role:
    def __init__(self, side="", gm=False):
        self.side, self.is_game_master, self.may_record = side, gm, True


def fow_state():
    return engine.state_to_json(FowTable().state)


@pytest.mark.parametrize("type_name", sorted(engine.RULESETS["fow"].registry))
def test_every_fow_type_builds_a_form_with_labels(type_name):
    state = fow_state()
    table = Table(state, "attacker", {"a1": "Стрелки Петрова"}, {"attacker": "Red", "defender": "Blue"})
    form = EventForm(event_type=type_name, table=table, side_choices=[("attacker", "Red")], ruleset="fow")
    html = str(form.as_p())
    assert html
    for name, field in form.fields.items():
        assert str(field.label) and "__" not in str(field.label), name


def test_fow_forms_offer_named_teams_and_d6_dice():
    state = fow_state()
    table = Table(state, "attacker", {"a1": "Стрелки Петрова"}, {"attacker": "Red", "defender": "Blue"})
    moved = EventForm(event_type="team_moved", table=table, side_choices=[("attacker", "Red")], ruleset="fow")
    assert any(v == "a1" and label.startswith("Стрелки Петрова") for v, label in moved.fields["team"].choices)
    assert all(v not in ("d1", "d2") for v, _l in moved.fields["team"].choices)  # only your teams
    dig = EventForm(event_type="dig_in_attempted", table=table, side_choices=[("attacker", "Red")], ruleset="fow")
    assert dig.fields["die__value"].max_value == 6


def test_a_fow_form_round_trips_its_payload():
    state = fow_state()
    table = Table(state, "attacker", {}, {"attacker": "Red", "defender": "Blue"})
    form = EventForm({"dig_in_attempted-platoon": "A1", "dig_in_attempted-die__source": "entered",
                      "dig_in_attempted-die__value": "5"}, event_type="dig_in_attempted", table=table,
                     side_choices=[("attacker", "Red")], ruleset="fow")
    assert form.is_valid(), form.errors
    payload = form.payload()
    assert payload["platoon"] == "A1" and payload["die"] == {"value": 5, "source": "entered"}
    engine.lookup("dig_in_attempted", "fow").parse(payload)


def test_fow_panel_lists_come_from_the_fow_policy():
    state = fow_state()
    mover = events_allowed(state=state, role=Role("attacker"))
    assert "dig_in_attempted" in mover and "fire" not in mover and "force_mustered" not in mover
    waiting = events_allowed(state=state, role=Role("defender"))
    assert "foxholes_marked" in waiting and "team_moved" not in waiting
    assert "force_mustered" in events_allowed(state=state, role=Role(gm=True))


def test_v11_force_mustered_units_label_is_unchanged():
    assert str(field_label("force_mustered", ("units",))) != str(field_label("battle_started", ("units",)))


def test_f_dig_19_the_mark_foxholes_form_offers_only_the_platoon_assaulted():
    """F-DIG-19: the defending platoon marks its foxholes. The form offers the recorder's platoons assaulted in
    this Assault Step: none before an assault, none of the assaulting side's (A1 still has a Dug In team), and
    after a2 assaults D1 the defender's D1 alone, not D2 which nobody assaulted."""
    d2 = {"id": "D2", "kind": "infantry", "teams": [{"id": "d3", "kind": "infantry"}]}
    t = FowTable(platoons_d=({"id": "D1", "kind": "infantry", "teams": [{"id": "d1", "kind": "infantry"},
                                                                       {"id": "d2", "kind": "infantry"}]}, d2))
    t.add(("dig_in_attempted", {"platoon": "A1", "die": {"value": 6, "source": "entered"}}))
    t.end_turn()
    t.add(("dig_in_attempted", {"platoon": "D1", "die": {"value": 6, "source": "entered"}}))
    t.end_turn()

    def offered(side, game_master=False):
        table = Table(engine.state_to_json(t.state), side, {"D1": "Взвод Иванова"},
                      {"attacker": "Red", "defender": "Blue"}, game_master=game_master)
        form = EventForm(event_type="foxholes_marked", table=table, side_choices=[(side, side)], ruleset="fow")
        return [(v, str(label)) for v, label in form.fields["platoon"].choices if v]

    assert offered("defender") == [] and offered("attacker") == []
    t.add(("assault_launched", {"teams": ["a2"], "against": "D1"}))
    assert t.state.teams["a1"].dug_in  # A1 still has a Dug In team, yet is not offered
    assert offered("defender") == [("D1", "Взвод Иванова")] and offered("attacker") == []
    # the game master's selects show the side to move's pieces (the assaulting attacker's): he records the mark
    # for the defender, and is offered the same platoon, not none
    assert offered("attacker", game_master=True) == [("D1", "Взвод Иванова")]
