"""No layer can rewrite or remove a stored event (V-TURN-13): model, queryset,
admin, API, and the database itself (raw SQL)."""
import pytest
from django.db import DatabaseError, connection, transaction

from battles.models import Battle, BattleEvent
from battles.services import NewEvent, battle_event_append
from config.appendonly import EventLogIsAppendOnly


@pytest.fixture
def stored(battle):
    battle_event_append(battle_id=battle.id, expected_seq=0, events=[
        NewEvent("battle_started", {"attacker": "A", "defender": "D"}),
        NewEvent("turn_ended", {"side": "defender", "turn": 1}),
    ])
    return BattleEvent.objects.filter(battle=battle).order_by("seq")


@pytest.mark.django_db
class TestOrm:
    def test_saving_a_stored_event_is_refused(self, stored):
        event = stored.first()
        event.type = "battle_ended"
        with pytest.raises(EventLogIsAppendOnly):
            event.save()

    def test_deleting_an_event_is_refused(self, stored):
        with pytest.raises(EventLogIsAppendOnly):
            stored.first().delete()

    @pytest.mark.parametrize("op", ["update", "delete", "bulk_update", "update_or_create"])
    def test_queryset_writes_are_refused(self, stored, op):
        qs = BattleEvent.objects.all()
        calls = {
            "update": lambda: qs.update(type="x"),
            "delete": lambda: qs.delete(),
            "bulk_update": lambda: qs.bulk_update(list(qs), ["type"]),
            "update_or_create": lambda: BattleEvent.objects.update_or_create(pk=stored.first().pk),
        }
        with pytest.raises(EventLogIsAppendOnly):
            calls[op]()
        assert BattleEvent.objects.count() == 2

    def test_a_battle_with_events_cannot_be_deleted(self, stored, battle):
        from django.db.models import ProtectedError

        with pytest.raises(ProtectedError):
            Battle.objects.get(pk=battle.pk).delete()


@pytest.mark.django_db
class TestDatabaseTrigger:
    @pytest.mark.parametrize("sql", [
        "UPDATE battles_battleevent SET type = 'forged'",
        "UPDATE battles_battleevent SET data = '{}' WHERE seq = 1",
        "DELETE FROM battles_battleevent",
        "DELETE FROM battles_battleevent WHERE seq = 2",
    ])
    def test_raw_sql_update_and_delete_are_refused(self, stored, sql):
        with pytest.raises(DatabaseError, match="append-only"):
            with transaction.atomic(), connection.cursor() as cur:
                cur.execute(sql)
        assert list(stored.values_list("type", flat=True)) == ["battle_started", "turn_ended"]

    def test_raw_sql_insert_still_works(self, stored, battle):
        """Append-only means inserts are the one allowed write."""
        with connection.cursor() as cur:
            cur.execute(
                "INSERT INTO battles_battleevent (battle_id, seq, position, type, data, schema_version, recorded_at)"
                " VALUES (%s, 3, 999999, 'turn_ended', %s, 1, CURRENT_TIMESTAMP)",
                [battle.id, '{"side": "attacker", "turn": 1}'],
            )
        assert stored.count() == 3


@pytest.mark.django_db
class TestInterfaces:
    def test_api_has_no_edit_or_delete_verb(self, gm_client, stored, battle):
        for method in ("put", "patch", "delete"):
            r = getattr(gm_client, method)(f"/api/battles/{battle.id}/events/", {}, format="json")
            assert r.status_code == 405, method
        assert stored.count() == 2

    def test_the_pages_record_and_take_back_urls_take_only_a_post(self, anon_client, stored, battle):
        """The battle page's recording URLs answer any other method 405, before anything is read."""
        for url in (f"/battles/{battle.id}/record/", f"/battles/{battle.id}/take-back/"):
            for method in ("get", "put", "patch", "delete"):
                assert getattr(anon_client, method)(url).status_code == 405, (method, url)
        assert stored.count() == 2

    def test_admin_shows_events_read_only(self, stored, battle):
        from django.contrib.auth.models import User
        from django.test import Client

        admin = User.objects.create_superuser("root", "root@example.com", "pw")
        c = Client()
        c.force_login(admin)
        event = stored.first()
        page = c.get(f"/admin/battles/battleevent/{event.pk}/change/")
        assert page.status_code == 200
        assert b'name="type"' not in page.content  # no editable widget
        r = c.post(f"/admin/battles/battleevent/{event.pk}/change/", {"type": "forged"})
        assert r.status_code == 403
        r = c.post(f"/admin/battles/battleevent/{event.pk}/delete/", {"post": "yes"})
        assert r.status_code == 403
        assert c.get("/admin/battles/battleevent/add/").status_code == 403
        assert BattleEvent.objects.get(pk=event.pk).type == "battle_started"


@pytest.mark.django_db(transaction=True)
def test_raw_sql_truncate_is_refused_on_postgresql(campaign):
    """Committed rows (no pending deferred-constraint events), then TRUNCATE."""
    from battles.services import battle_create

    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no TRUNCATE statement (its DELETE is refused above)")
    battle = battle_create(campaign=campaign, name="t")
    battle_event_append(battle_id=battle.id, expected_seq=0,
                        events=[NewEvent("battle_started", {"attacker": "A", "defender": "D"})])
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute("TRUNCATE battles_battleevent CASCADE")
    assert BattleEvent.objects.filter(battle=battle).count() == 1
