"""The quick «Огонь» form after an area weapon's hit roll (G-7): the struck man's own G-2 die is a field of
its own, rolled by the service unless the table entered it, so a table playing offline (issue 30) enters both
dice and the service rolls none of them when the entry reaches it."""
from battles.table.choices import Table
from battles.table.recording import QuickFireForm

SIDES = {"attacker": "Вермахт", "defender": "РККА"}


def table(weapon):
    state = {"side_to_move": "attacker", "status": "running",
             "fighters": {"d1": {"side": "defender", "cls": "rifleman"}},
             "vehicles": {"g1": {"side": "attacker", "kind": "artillery", "weapon": weapon}}}
    return Table(state, "attacker", {"g1": "Миномёт №1", "d1": "Стрелок №1"}, SIDES)


def sent(weapon, **dice):
    data = {"quick_fire-shooter": "g1", "quick_fire-target": "f:d1", "quick_fire-distance": "20",
            **{f"quick_fire-{k}": v for k, v in dice.items()}}
    form = QuickFireForm(data, table=table(weapon))
    assert form.is_valid(), form.errors
    payload = form.payload()
    return form, payload


def test_g2_an_area_weapon_takes_the_struck_mans_die_entered_at_the_table():
    form, p = sent("mortar", die__source="entered", die__value="4", struck_die__source="entered",
                   struck_die__value="17")
    assert not form.errors
    assert p["hit"] == {"value": 4, "source": "entered"}
    assert p["struck"] == [{"fighter": "d1", "die": {"value": 17, "source": "entered"}}]


def test_g2_the_struck_mans_die_is_the_services_unless_entered():
    _form, p = sent("mortar", die__source="entered", die__value="4", struck_die__source="rolled")
    assert p["struck"][0]["die"] == {"source": "rolled"}


def test_g2_an_entered_struck_die_needs_its_face():
    form, _p = sent("mortar", die__source="entered", die__value="4", struck_die__source="entered")
    assert "struck_die__value" in form.errors


def test_the_struck_die_is_offered_only_where_a_shooter_rolls_to_hit_with_an_area_weapon():
    assert "struck_die__source" in QuickFireForm(table=table("mortar")).fields
    assert "struck_die__source" not in QuickFireForm(table=table("hmg")).fields
    # a machine gun's one die is the struck man's G-2 die itself
    _form, p = sent("hmg", die__source="entered", die__value="9")
    assert p["struck"] == [{"fighter": "d1", "die": {"value": 9, "source": "entered"}}] and "hit" not in p
