"""rosters.domain: tests written to kill mutants that survived ``make mutants``
(docs/mutants.md). Each asserts what the roster report says and cites the rule. No database."""
from __future__ import annotations

import pytest

from .builders import Build, ids


def _motor_crew(personnel: int, commanders: tuple[str, ...]) -> Build:
    b = Build()
    m = b.unit("motorised")
    v = b.vehicle("tank", m, armour=2, gun=2)
    b.add("personnel", personnel, m, vehicle=v)
    for rank in commanders:
        b.add(rank, 1, m, vehicle=v)
    b.add("lieutenant", 1)
    return b


@pytest.mark.parametrize(("commanders", "ok"), [
    (("corporal",), True),
    ((), False),  # no commander
    (("corporal", "corporal"), False),  # two commanders: the seed says one
])
def test_v_motor_6_exactly_one_corporal_commands_a_motorised_crew(commanders, ok):
    """V-MOTOR-6: each armoured vehicle's crew is 2 personnel and one corporal commander."""
    report = _motor_crew(2, commanders).report()
    assert ("V-MOTOR-6" in ids(report)) is (not ok)


@pytest.mark.parametrize("personnel", [1, 3])
def test_v_motor_6_two_personnel_not_more_not_fewer(personnel):
    assert "V-MOTOR-6" in ids(_motor_crew(personnel, ("corporal",)).report())
