"""A battle's first optimistic append uses this process's snapshot of the
rules data instead of reading three tables; the version row, which a trigger
renumbers whenever the data changes, is checked by the same statement that
stores the snapshot, so a battle never starts under rules older than the data
at its first event (issue 14, docs/append.md)."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles import services
from battles.models import Battle, RulesDataVersion, RulesSetting
from battles.selectors import rules_settings
from battles.services import RULES_SNAPSHOT, NewEvent, battle_create, battle_event_append
from rosters.models import InfantryClass, RosterRules

START = NewEvent("battle_started", {"attacker": "A", "defender": "D"})
RULES_TABLES = ("battles_rulessetting", "rosters_infantryclass", "rosters_rosterrules")


def on_pg():
    return connection.vendor == "postgresql"


def version():
    return RulesDataVersion.objects.get(id=1).version


def start(campaign, name):
    battle = battle_create(campaign=campaign, name=name)
    battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
    battle.refresh_from_db()
    return battle


@pytest.mark.django_db
def test_every_change_to_the_rules_data_gives_the_version_row_a_new_number():
    if not on_pg():
        pytest.skip("the triggers are PostgreSQL's: SQLite never uses a cached snapshot")
    seen = [version()]
    RulesSetting.objects.create(key="talk_distance", value=8.0)
    seen.append(version())
    RulesSetting.objects.filter(key="talk_distance").update(value=2.0)
    seen.append(version())
    first = InfantryClass.objects.order_by("pk").first()
    InfantryClass.objects.filter(pk=first.pk).update(observation_in=first.observation_in + 1)
    seen.append(version())
    RosterRules.objects.update(smoke_min_gun_class=2)
    seen.append(version())
    RulesSetting.objects.all().delete()
    seen.append(version())
    assert len(set(seen)) == len(seen), seen


@pytest.fixture
def positions():
    from battles.models import LogPosition

    LogPosition.objects.get_or_create(id=1)  # a flushed test database lost it (the locked path recreates it)
    RULES_SNAPSHOT.forget()  # another test's snapshot, of data since flushed, would only fail its first statement


# The optimistic path needs the state battle_create leaves on commit: these tests commit.
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("positions")
def test_a_new_battle_takes_the_cached_snapshot_without_reading_the_rules_tables(campaign):
    start(campaign, "warms the snapshot")
    if on_pg():
        assert RULES_SNAPSHOT.get()[1].rules == rules_settings()
    with CaptureQueriesContext(connection) as ctx:
        battle = start(campaign, "uses it")
    read = [q["sql"] for q in ctx.captured_queries if any(t in q["sql"] for t in RULES_TABLES)]
    if on_pg():
        assert read == [], read
    assert battle.rules == rules_settings()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("positions")
@pytest.mark.parametrize("change", ["setting", "infantry table", "roster rules"])
def test_rules_changed_after_the_snapshot_was_cached_are_the_ones_the_next_battle_keeps(campaign, change):
    start(campaign, "warms the snapshot")
    before = rules_settings()
    if on_pg():
        assert RULES_SNAPSHOT.get()[1].rules == before  # the snapshot this process now holds
    if change == "setting":
        RulesSetting.objects.create(key="talk_distance", value=8.5)
    elif change == "infantry table":
        first = InfantryClass.objects.order_by("position", "id").first()
        InfantryClass.objects.filter(pk=first.pk).update(observation_in=first.observation_in + 3)
    else:
        RosterRules.objects.update(smoke_min_gun_class=1 if before["smoke_min_gun_class"] != 1 else 2)
    after = rules_settings()
    assert after != before
    battle = start(campaign, "after the change")
    assert battle.rules == after  # not the stale snapshot this process held
    again = start(campaign, "and the next")
    assert again.rules == after


@pytest.mark.django_db(transaction=True)
def test_a_version_from_a_rolled_back_change_never_matches_again(campaign):
    """The snapshot was read inside a transaction that changed the rules and
    rolled back; the next change, with other data, must not match it."""
    from django.db import transaction

    from battles.models import LogPosition

    LogPosition.objects.get_or_create(id=1)
    RULES_SNAPSHOT.forget()
    RULES_SNAPSHOT.get()  # reads the version row: a flushed database lost it, and this recreates it, committed
    RULES_SNAPSHOT.forget()
    committed = version()

    class Undo(Exception):
        pass

    battle = battle_create(campaign=campaign, name="rolled back")  # committed: its state is cached
    with pytest.raises(Undo), transaction.atomic():
        RulesSetting.objects.create(key="talk_distance", value=7.5)
        battle_event_append(battle_id=battle.id, events=[START], expected_seq=0)
        assert version() != committed or not on_pg()  # the trigger ran (PostgreSQL's)
        raise Undo
    assert version() == committed
    if on_pg():  # the scenario: this process holds a snapshot read inside the transaction that rolled back
        assert RULES_SNAPSHOT.get()[1].rules["talk_distance"] == 7.5
    RulesSetting.objects.create(key="talk_distance", value=3.5)
    battle = start(campaign, "after the rollback")
    assert battle.rules["talk_distance"] == 3.5
    assert Battle.objects.get(name="rolled back").rules is None  # its first append was rolled back too


@pytest.mark.django_db(transaction=True)
def test_a_lost_version_row_is_recreated_and_the_battle_still_starts_under_the_current_rules(campaign):
    from battles.models import LogPosition

    LogPosition.objects.get_or_create(id=1)
    RulesDataVersion.objects.all().delete()
    RULES_SNAPSHOT.forget()
    RulesSetting.objects.create(key="talk_distance", value=6.5)
    battle = start(campaign, "row lost")
    assert battle.rules["talk_distance"] == 6.5
    if on_pg():
        assert RulesDataVersion.objects.filter(id=1).exists()
    assert services.RULES_SNAPSHOT is RULES_SNAPSHOT
