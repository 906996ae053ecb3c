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


def test_f_air_1_the_hits_then_each_save_on_its_own_form_the_owner_records_his_save():
    fow = FowTable()
    names = {"d1": "Стрелки Иванова", "d2": "Стрелки Петрова"}
    attacker = Table(engine.state_to_json(fow.state), "attacker", names, {"attacker": "Red", "defender": "Blue"})
    p = "air_attack_hit-"
    data = {p + "side": "attacker", p + "aircraft": "Ju 87", p + "hits__0__team": "d1", p + "hits__0__weapon": "mg",
            p + "hits__1__team": "d2", p + "hits__1__weapon": "bombs"}
    form = EventForm(data, event_type="air_attack_hit", table=attacker, side_choices=[("attacker", "Red")],
                     ruleset="fow")
    teams = [v for v, _label in form.fields["hits__0__team"].choices if v]
    assert "d1" in teams and "a1" not in teams
    assert form.is_valid(), form.errors
    fow.add(("air_attack_hit", form.payload()))
    defender = Table(engine.state_to_json(fow.state), "defender", names, {"attacker": "Red", "defender": "Blue"})
    q = "air_save_rolled-"
    save = EventForm({q + "aircraft": "Ju 87", q + "team": "d1", q + "save__source": "entered", q + "save__value": "2",
                      q + "firepower_die__source": "none"}, event_type="air_save_rolled", table=defender,
                     side_choices=[("defender", "Blue")], ruleset="fow")
    assert "d1" in [v for v, _label in save.fields["team"].choices if v]  # the owner's own teams
    assert save.is_valid(), save.errors
    fow.add(("air_save_rolled", save.payload()))
    assert fow.t("d1").destroyed and not fow.t("d2").destroyed  # F-AIR-10; d2's save is still to come
