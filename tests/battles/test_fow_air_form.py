"""The battle page's form for an air attack (F-AIR): enemy teams to pick, the hits as rows,
the save and Firepower dice as d6; its payload is accepted by the FoW engine."""
from battles import engine
from battles.table.choices import Table
from battles.table.forms import EventForm
from tests.engine.fow.table import Table as FowTable


def test_f_air_1_the_air_attack_form_offers_enemy_teams_and_round_trips_its_hits():
    fow = FowTable()
    table = Table(engine.state_to_json(fow.state), "attacker", {"d1": "Стрелки Иванова"},
                  {"attacker": "Red", "defender": "Blue"})
    p = "air_attack_resolved-"
    data = {p + "side": "attacker", p + "aircraft": "Ju 87", p + "hits__0__team": "d1", p + "hits__0__weapon": "mg",
            p + "hits__0__save__source": "entered", p + "hits__0__save__value": "2",
            p + "hits__0__firepower_die__source": "none",
            **{f"{p}hits__{i}__{k}__source": "none" for i in (1, 2, 3) for k in ("save", "firepower_die")}}
    form = EventForm(data, event_type="air_attack_resolved", table=table, side_choices=[("attacker", "Red")],
                     ruleset="fow")
    teams = [v for v, _label in form.fields["hits__0__team"].choices if v]
    assert "d1" in teams and "a1" not in teams  # the aircraft hit the enemy's teams
    assert form.fields["hits__0__save__value"].max_value == 6
    assert form.is_valid(), form.errors
    payload = form.payload()
    assert payload["hits"] == [{"team": "d1", "weapon": "mg", "save": {"value": 2, "source": "entered"}}]
    fow.add(("air_attack_resolved", payload))
    assert fow.t("d1").destroyed and fow.state.platoons["D1"].pinned  # F-AIR-10: 2 fails the 3+ save
