"""Property tests of the validator: the report does not depend on the order in
which units, vehicles and fighters are listed, and splitting a line of fighters
in two changes nothing (V-PP-1…5 pricing, V-SQUAD limits)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rosters import domain

from .builders import Build, rules

CLASSES = ["rifleman", "sniper", "light_mg", "scout", "sapper", "medic", "at_grenadier", "flamethrower",
           "radio_operator", "corporal", "sergeant", "lieutenant"]


@st.composite
def rosters(draw):
    b = Build()
    p = b.unit("platoon")
    squads = [b.unit("squad", p) for _ in range(draw(st.integers(1, 3)))]
    for _ in range(draw(st.integers(0, 25))):
        b.add(draw(st.sampled_from(CLASSES)), draw(st.integers(1, 4)), draw(st.sampled_from([p, *squads])),
              team=draw(st.sampled_from([None, 1, 2, 3])))
    if draw(st.booleans()):
        b.vehicle("tank", draw(st.sampled_from(squads)), armour=draw(st.integers(1, 7)), crew=draw(st.booleans()))
    return b.spec()


def _key(report: domain.Report):
    return report.total, report.budget, sorted((v.rule_id, v.unit or "", v.severity) for v in report.violations)


@settings(max_examples=150, deadline=None)
@given(rosters(), st.randoms(use_true_random=False))
def test_report_is_independent_of_listing_order(spec, rnd):
    shuffled = [list(spec.units), list(spec.vehicles), list(spec.fighters)]
    for part in shuffled:
        rnd.shuffle(part)
    other = domain.RosterSpec(*(tuple(p) for p in shuffled), spec.side, spec.in_campaign)
    assert _key(domain.validate(spec, rules())) == _key(domain.validate(other, rules()))


@settings(max_examples=150, deadline=None)
@given(rosters(), st.data())
def test_splitting_a_line_of_fighters_changes_nothing(spec, data):
    lines = [i for i, f in enumerate(spec.fighters) if f.count > 1]
    if not lines:
        return
    i = data.draw(st.sampled_from(lines))
    f = spec.fighters[i]
    k = data.draw(st.integers(1, f.count - 1))
    split = (*spec.fighters[:i], domain.FighterSpec(f.cls, k, f.unit, f.vehicle, f.fire_team),
             domain.FighterSpec(f.cls, f.count - k, f.unit, f.vehicle, f.fire_team), *spec.fighters[i + 1:])
    other = domain.RosterSpec(spec.units, spec.vehicles, split, spec.side, spec.in_campaign)
    assert _key(domain.validate(spec, rules())) == _key(domain.validate(other, rules()))


REFS = st.sampled_from(["a", "b", "c", "zz"])


@st.composite
def garbage(draw):
    """Any roster the JSON import's shape check could let through, and worse."""
    units = draw(st.lists(st.builds(domain.UnitSpec, REFS, st.sampled_from([*domain.UNIT_KINDS, "fort"]),
                                    st.text(max_size=3), st.one_of(st.none(), REFS),
                                    st.sampled_from(["", "recon", "mg", "cavalry"]),
                                    st.lists(st.sampled_from(["u1", "u2", "nope"]), max_size=3).map(tuple)),
                          max_size=6))
    vehicles = draw(st.lists(st.builds(domain.VehicleSpec, REFS, st.sampled_from([*domain.VEHICLE_KINDS, "ufo"]),
                                       st.text(max_size=3), st.one_of(st.none(), REFS),
                                       st.sampled_from(domain.GUN_TYPES), st.one_of(st.none(), st.integers(0, 9)),
                                       st.one_of(st.none(), st.integers(0, 9)), st.booleans(),
                                       st.lists(st.sampled_from(["spotter", "tractor", "aa_at_fire", "x"]),
                                                max_size=3).map(tuple)),
                             max_size=4))
    fighters = draw(st.lists(st.builds(domain.FighterSpec, st.sampled_from([*CLASSES, "captain", "personnel", "elf"]),
                                       st.integers(1, 20), st.one_of(st.none(), REFS), st.one_of(st.none(), REFS),
                                       st.one_of(st.none(), st.integers(0, 4))),
                             max_size=20))
    return domain.RosterSpec(tuple(units), tuple(vehicles), tuple(fighters), draw(st.sampled_from(["", "attacker"])),
                             draw(st.booleans()))


@settings(max_examples=300, deadline=None)
@given(garbage())
def test_validate_never_crashes_and_every_violation_is_bilingual_with_a_catalog_id(spec):
    report = domain.validate(spec, rules())
    assert report.total >= 0
    for v in report.violations:
        assert v.rule_id.startswith("V-") and v.message_ru and v.message_en
        assert v.severity in ("error", "warning")
