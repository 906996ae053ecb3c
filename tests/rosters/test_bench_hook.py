"""The roster figures ``make bench`` reports (rosters/bench.py) are computed for real."""
import pytest

from rosters import bench

pytestmark = pytest.mark.django_db


def test_bench_company_breaks_only_the_budget(player):
    """The benchmark validates a realistic company: every structure rule holds; only V-PP-4 (80 PP) is exceeded."""
    from campaign.models import Character, Nationality
    from rosters import selectors, services
    from rosters.models import Upgrade

    for code in ("bench-grenades", "bench-camouflage"):
        Upgrade.objects.create(code=code, name_ru=code, name_en=code, cost=1)
    character = Character.objects.create(owner=player, name="К", nationality=Nationality.objects.first(),
                                         rank="captain")
    data = bench.company_export()
    assert sum(f["count"] for f in data["fighters"]) >= 100 and len(data["vehicles"]) == 6
    roster, _ = services.roster_import(user=player, character=character, data=data)
    report = selectors.roster_validate(roster=roster)
    assert [v.rule_id for v in report.errors] == ["V-PP-4"]
    assert report.ok is False and report.budget == 80 and report.total > 100


def test_measure_reports_validate_time_and_constant_page_queries():
    result = bench.measure(repeats=3)
    assert result["roster_validate_ms"] > 0
    assert result["roster_fighters"] >= 100 and result["roster_vehicles"] == 6
    assert result["roster_page_queries_full"] == result["roster_page_queries_small"]
