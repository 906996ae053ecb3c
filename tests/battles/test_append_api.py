"""Appending to and reading the battle log over HTTP."""
import pytest

from battles.models import BattleEvent

START = {"type": "battle_started", "data": {"attacker": "Вермахт", "defender": "РККА"}}
# What a participant records once the game master has started the battle (before it, nothing: V-TURN-2).
TURN1 = {"type": "turn_ended", "data": {"side": "defender", "turn": 1}}
ENDED = {"type": "battle_ended", "data": {"winner": "draw", "reason": "ничья"}}


def url(battle, suffix="events"):
    return f"/api/battles/{battle.id}/{suffix}/"


def append(client, battle, events, expected_seq=0, **kw):
    return client.post(url(battle), {"expected_seq": expected_seq, "events": events}, format="json", **kw)


@pytest.mark.django_db
class TestAppend:
    def test_batch_is_stored_with_gapless_seqs_and_positions(self, defender_client, started):
        battle = started
        r = append(defender_client, battle, [TURN1, ENDED], expected_seq=1)
        assert r.status_code == 201, r.json()
        body = r.json()
        assert [e["seq"] for e in body] == [2, 3]
        assert body[1]["position"] == body[0]["position"] + 1
        assert body[0]["recorded_by"] == "ivan"
        battle.refresh_from_db()
        assert battle.head_seq == 3

    def test_stale_expected_seq_is_409_with_current_seq_and_writes_nothing(self, defender_client, started):
        battle = started
        assert append(defender_client, battle, [TURN1], expected_seq=1).status_code == 201
        r = append(defender_client, battle, [ENDED], expected_seq=1)
        assert r.status_code == 409
        err = r.json()["error"]
        assert err["code"] == "stale_seq" and err["current_seq"] == 2 and err["field"] == "expected_seq"
        assert err["message_ru"] and err["message_en"]
        assert BattleEvent.objects.filter(battle=battle).count() == 2

    def test_null_expected_seq_appends_at_the_head(self, defender_client, started):
        r = append(defender_client, started, [TURN1], expected_seq=None)
        assert r.status_code == 201 and r.json()[0]["seq"] == 2

    def test_same_key_returns_the_original_and_stores_nothing_new(self, defender_client, started):
        battle = started
        first = append(defender_client, battle, [dict(TURN1, key="k-1")], expected_seq=1)
        again = append(defender_client, battle, [dict(TURN1, key="k-1")], expected_seq=1)  # a retry: stale seq too
        assert first.status_code == 201 and again.status_code == 200
        assert again.json() == first.json()
        assert BattleEvent.objects.filter(battle=battle).count() == 2

    def test_key_reused_for_a_different_event_is_409(self, defender_client, started):
        battle = started
        append(defender_client, battle, [dict(TURN1, key="k-1")], expected_seq=1)
        other = dict(ENDED, key="k-1")
        r = append(defender_client, battle, [other], expected_seq=2)
        assert r.status_code == 409 and r.json()["error"]["code"] == "idempotency_conflict"
        assert r.json()["error"]["field"] == "events[0].key"

    def test_half_known_batch_is_409_and_writes_nothing(self, defender_client, started):
        battle = started
        append(defender_client, battle, [dict(TURN1, key="a")], expected_seq=1)
        r = append(defender_client, battle, [dict(TURN1, key="a"), dict(ENDED, key="b")], expected_seq=2)
        assert r.status_code == 409 and r.json()["error"]["code"] == "idempotency_partial"
        assert BattleEvent.objects.filter(battle=battle).count() == 2

    def test_duplicate_key_inside_one_batch_is_400(self, defender_client, battle):
        r = append(defender_client, battle, [dict(START, key="x"), {"type": "turn_ended",
                   "data": {"side": "defender", "turn": 1}, "key": "x"}])
        assert r.status_code == 400 and r.json()["error"]["field"] == "events[1].key"

    @pytest.mark.parametrize(
        ("body", "field"),
        [
            ({"events": [START]}, "expected_seq"),
            ({"expected_seq": "x", "events": [START]}, "expected_seq"),
            ({"expected_seq": 0, "events": "nope"}, "events"),
            ({"expected_seq": 0, "events": []}, "events"),
            ({"expected_seq": 0, "events": [{"data": {}}]}, "events[0].type"),
            ({"expected_seq": 0, "events": [{"type": "battle_started"}]}, "events[0].data"),
            ({"expected_seq": 0, "events": [{"type": "no_such_event", "data": {}}]}, "events[0].type"),
            ({"expected_seq": 0, "events": [{"type": "battle_started", "data": {"attacker": "A"}}]},
             "events[0].data.defender"),
            ({"expected_seq": 0, "events": [{"type": "battle_started",
                                             "data": {"attacker": "A", "defender": "D", "colour": 1}}]},
             "events[0].data.colour"),
            ({"expected_seq": 0, "events": [START, {"type": "turn_ended", "data": {"side": "x", "turn": 1}}]},
             "events[1].data.side"),
            ({"expected_seq": 0, "events": [START], "extra": 1}, "extra"),
        ],
    )
    def test_malformed_input_is_400_naming_the_field_and_writes_nothing(self, defender_client, battle, body, field):
        r = defender_client.post(url(battle), body, format="json")
        assert r.status_code == 400, r.json()
        err = r.json()["error"]
        assert err["field"] == field
        assert err["message_ru"] != err["message_en"]
        assert not BattleEvent.objects.filter(battle=battle).exists()

    def test_rule_refusal_is_422_with_the_rule_id_and_the_whole_batch_is_refused(self, attacker_client, started):
        battle = started
        # V-TURN-8: the defender moves first, so the attacker cannot end turn 1 first.
        r = append(attacker_client, battle, [{"type": "terrain_placed", "data": {"houses": ["H"]}},
                                             {"type": "turn_ended", "data": {"side": "attacker", "turn": 1}}],
                   expected_seq=1)
        assert r.status_code == 422
        err = r.json()["error"]
        assert err["rule_id"] == "V-TURN-12" and err["index"] == 1
        assert "attacker" in err["message_en"] and err["message_ru"]
        assert BattleEvent.objects.filter(battle=battle).count() == 1
        battle.refresh_from_db()
        assert battle.head_seq == 1

    def test_error_message_follows_the_request_language(self, defender_client, battle):
        r = defender_client.post(url(battle), {"events": [START]}, format="json", HTTP_ACCEPT_LANGUAGE="en")
        assert r.json()["error"]["message"] == r.json()["error"]["message_en"]
        r = defender_client.post(url(battle), {"events": [START]}, format="json", HTTP_ACCEPT_LANGUAGE="ru")
        assert r.json()["error"]["message"] == r.json()["error"]["message_ru"]

    def test_unknown_battle_is_404(self, player_client, battle):
        r = player_client.post("/api/battles/999999/events/", {"expected_seq": 0, "events": [START]}, format="json")
        assert r.status_code == 404


@pytest.mark.django_db
class TestPermissions:
    def test_anonymous_visitors_read_but_cannot_append(self, anon_client, battle):
        assert anon_client.get(url(battle)).status_code == 200
        assert append(anon_client, battle, [START]).status_code in (401, 403)

    def test_a_user_without_a_role_cannot_append(self, outsider, battle):
        from rest_framework.test import APIClient

        c = APIClient()
        c.force_authenticate(outsider)
        assert append(c, battle, [START]).status_code == 403

    def test_only_the_game_master_may_append_a_correction(self, defender_client, gm_client, started):
        battle = started
        append(defender_client, battle, [TURN1], expected_seq=1)
        fix = [{"type": "correction", "data": {"voids_seq": 2, "reason": "ошибка"}}]
        r = append(defender_client, battle, fix, expected_seq=2)
        assert r.status_code == 403 and r.json()["error"]["code"] == "game_master_only"
        assert append(gm_client, battle, fix, expected_seq=2).status_code == 201

    def test_token_auth_obtains_a_token_and_appends(self, defender, started):
        battle = started
        from rest_framework.test import APIClient

        c = APIClient()
        r = c.post("/api/auth/token/", {"username": "ivan", "password": "pw-ivan"}, format="json")
        assert r.status_code == 200
        c.credentials(HTTP_AUTHORIZATION="Token " + r.json()["token"])
        assert append(c, battle, [TURN1], expected_seq=1).status_code == 201

    def test_only_the_game_master_creates_battles(self, player_client, gm_client, campaign):
        body = {"campaign": campaign.id, "name": "Бой 2"}
        assert player_client.post("/api/battles/", body, format="json").status_code == 403
        r = gm_client.post("/api/battles/", body, format="json")
        assert r.status_code == 201 and r.json()["head_seq"] == 0


@pytest.mark.django_db
class TestRead:
    def test_events_are_paginated_in_seq_order(self, gm_client, anon_client, battle):
        evs = [START] + [{"type": "turn_ended", "data": {"side": s, "turn": t}}
                         for t in (1, 2, 3) for s in ("defender", "attacker")]
        assert append(gm_client, battle, evs).status_code == 201
        page = anon_client.get(url(battle), {"after": 2, "limit": 3}).json()
        assert [e["seq"] for e in page["results"]] == [3, 4, 5]
        assert page["head_seq"] == 7 and "after=5" in page["next"]
        last = anon_client.get(page["next"]).json()
        assert [e["seq"] for e in last["results"]] == [6, 7] and last["next"] is None

    def test_bad_query_parameter_names_it(self, anon_client, battle):
        r = anon_client.get(url(battle), {"limit": 0})
        assert r.status_code == 400 and r.json()["error"]["field"] == "limit"

    def test_event_types_list_every_type_with_a_json_schema(self, anon_client):
        from battles import engine

        body = anon_client.get("/api/event-types/").json()["results"]
        assert {t["type"] for t in body} == set(engine.REGISTRY)
        started = next(t for t in body if t["type"] == "battle_started")
        assert started["schema"]["required"] == ["attacker", "defender"]
        assert started["title_ru"] and started["title_en"]

    def test_global_feed_orders_every_battle_by_position(self, gm_client, anon_client, campaign):
        from battles.services import battle_create

        b1, b2 = battle_create(campaign=campaign, name="1"), battle_create(campaign=campaign, name="2")
        append(gm_client, b1, [START])
        append(gm_client, b2, [START])
        append(gm_client, b1, [{"type": "turn_ended", "data": {"side": "defender", "turn": 1}}], expected_seq=1)
        feed = anon_client.get("/api/events/").json()["results"]
        assert [(e["battle"], e["seq"]) for e in feed] == [(b1.id, 1), (b2.id, 1), (b1.id, 2)]
        tail = anon_client.get("/api/events/", {"after_position": feed[0]["position"]}).json()["results"]
        assert len(tail) == 2


@pytest.mark.django_db
def test_append_answer_is_the_serializers(defender_client, started):
    """The append answers with ``events_out``, which must say what the documented ``EventOut`` says."""
    from battles.log.http import EventOut, events_out
    from battles.models import BattleEvent

    r = append(defender_client, started, [TURN1], expected_seq=1)
    assert r.status_code == 201
    stored = list(BattleEvent.objects.filter(battle=started, seq=2).select_related("recorded_by"))
    assert r.json() == events_out(stored) == EventOut(stored, many=True).data
    assert r.json()[0]["recorded_by"] == stored[0].recorded_by.username


@pytest.mark.django_db
def test_the_append_answers_json_whatever_the_client_accepts(defender_client, started):
    """The stored events are JSON for any client (the browsable API renders reads, not appends), and a
    retry's answer is the same JSON."""
    r = append(defender_client, started, [{**TURN1, "key": "t1"}], expected_seq=1, HTTP_ACCEPT="text/html")
    assert r.status_code == 201 and r["Content-Type"] == "application/json"
    again = append(defender_client, started, [{**TURN1, "key": "t1"}], expected_seq=1, HTTP_ACCEPT="text/html")
    assert again.status_code == 200 and again["Content-Type"] == "application/json"
    assert again.json() == r.json() and [e["seq"] for e in r.json()] == [2]
