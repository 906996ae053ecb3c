"""On PostgreSQL a query is parsed and planned once a connection: server-side binding, and psycopg prepares a
query after its fifth run on a connection (config/settings/base.py, ``SHTAB_DB_PREPARED``). The ORM's queries
and the plain ones alike; ``SHTAB_DB_PREPARED=0`` (a pooler that cannot keep them) prepares none."""
import pytest
from django.db import connection
from django.db.models import F

from battles import selectors
from campaign.models import Campaign

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")


def prepared(fragment: str) -> list[str]:
    with connection.cursor() as cur:
        cur.execute("SELECT statement FROM pg_prepared_statements WHERE statement LIKE %s", [f"%{fragment}%"])
        return [r[0] for r in cur.fetchall()]


def names(battle, alias: str, times: int) -> list[str]:
    return [Campaign.objects.filter(pk=battle.campaign_id).annotate(**{alias: F("name")})
            .values_list(alias, flat=True).first() for _ in range(times)]


@pytest.mark.django_db
def test_an_orm_query_run_five_times_on_a_connection_is_prepared_and_answers_the_same(battle):
    assert names(battle, "prepared_probe", 7) == [battle.campaign.name] * 7
    (statement,) = prepared("prepared_probe")  # once, its parameter bound by the server
    assert "$1" in statement


@pytest.mark.django_db
def test_a_query_run_fewer_than_five_times_is_not_prepared(battle):
    assert names(battle, "unprepared_probe", 4) == [battle.campaign.name] * 4
    assert prepared("unprepared_probe") == []


@pytest.mark.django_db
def test_a_plain_query_of_the_battle_page_is_prepared_too(battle):
    heads = [selectors.battle_head(battle_id=battle.id) for _ in range(7)]
    assert heads == [(battle.head_seq, 0)] * 7
    assert [s for s in prepared("head_seq") if "battles_battleprojection" in s] != []
