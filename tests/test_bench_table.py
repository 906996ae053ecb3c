"""The bench's battle-table case (``bench/table.py``) runs: its battle is one the append takes (the dice thrown
at the table, none with the service's secrets), and its «Ход» forms are stored, one entry each."""
import pytest

from battles.models import Battle
from bench import table


@pytest.mark.django_db(transaction=True)
def test_the_table_case_builds_a_running_battle_and_times_its_page_and_its_forms():
    built = table.build(events=150)
    battle = Battle.objects.get(pk=built["battle"])
    assert battle.head_seq == 150
    out = table.measure(built, requests=2, records=3)
    assert out["battle_page_events"] == 150 and out["record_event_samples"] == 3
    assert Battle.objects.get(pk=battle.pk).head_seq == 153  # each form one entry
    assert 0 < out["battle_page_median_ms"] <= out["battle_page_p95_ms"]
