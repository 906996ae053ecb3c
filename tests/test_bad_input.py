"""Bad input gets a 400 naming the field, never a 500, and nothing is stored.

Probes found by Schemathesis and by hand (issue 10): NUL characters and lone
surrogates in any string (PostgreSQL refuses NUL in text and jsonb; a lone
surrogate cannot be encoded as UTF-8), JSON nested deeper than the parser's
recursion, bad paging parameters, and errors raised outside DRF that used to
answer HTML. Every API error has the one documented shape.
"""
from __future__ import annotations

import json

import pytest
from django.db import OperationalError
from django.test import Client, override_settings

from battles.models import BattleEvent

BAD = ["a\u0000b", "a\ud800b"]
START = {"type": "battle_started", "data": {"attacker": "Вермахт", "defender": "РККА"}}
ERROR_KEYS = {"code", "field", "rule_id", "message", "message_ru", "message_en"}


def raw_post(client, url: str, body: str, **extra):
    """A JSON body sent as written: json.dumps would keep a lone surrogate as
    its escape anyway, and a deeply nested body must not pass through Python's
    own encoder."""
    return client.generic("POST", url, body.encode("utf-8", "surrogatepass"), content_type="application/json", **extra)


def dumps(value) -> str:
    return json.dumps(value)  # escapes NUL as \\u0000 and a lone surrogate as \\ud800


def error_of(response, status: int = 400) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) == {"error"}, body
    err = body["error"]
    assert ERROR_KEYS <= set(err), err
    assert err["message_ru"] and err["message_en"], err
    return err


@pytest.fixture
def character(player):
    from campaign.models import Character, Nationality

    return Character.objects.create(owner=player, name="Иван Петров", nationality=Nationality.objects.get(code="su"),
                                    rank="sergeant")


@pytest.fixture
def roster(player, character):
    from rosters import services

    return services.roster_create(user=player, character=character, name="Отделение Петрова")


# --- 1. NUL and lone surrogates ---------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("bad", BAD, ids=["nul", "surrogate"])
class TestNulAndSurrogates:
    def test_event_data_string_is_400_naming_the_field_and_stores_nothing(self, defender_client, battle, bad):
        body = {"expected_seq": 0, "events": [{"type": "battle_started", "data": {"attacker": bad, "defender": "x"}}]}
        err = error_of(raw_post(defender_client, f"/api/battles/{battle.id}/events/", dumps(body)))
        assert err["field"] == "events[0].data.attacker"
        assert not BattleEvent.objects.filter(battle=battle).exists()

    def test_event_data_key_is_400_naming_the_field(self, defender_client, battle, bad):
        body = {"expected_seq": 0, "events": [{"type": "battle_started", "data": {bad: 1}}]}
        err = error_of(raw_post(defender_client, f"/api/battles/{battle.id}/events/", dumps(body)))
        assert err["field"].startswith("events[0].data")
        assert not BattleEvent.objects.filter(battle=battle).exists()

    def test_idempotency_key_is_400_naming_the_field(self, defender_client, battle, bad):
        body = {"expected_seq": 0, "events": [dict(START, key=bad)]}
        err = error_of(raw_post(defender_client, f"/api/battles/{battle.id}/events/", dumps(body)))
        assert err["field"] == "events[0].key"
        assert not BattleEvent.objects.filter(battle=battle).exists()

    def test_unit_id_in_event_data_is_400_naming_the_field(self, defender_client, battle, bad):
        body = {"expected_seq": 0, "events": [START, {"type": "turn_ended", "data": {"side": "defender", "turn": 1}},
                                               {"type": "fire", "data": {"shooter": bad}}]}
        err = error_of(raw_post(defender_client, f"/api/battles/{battle.id}/events/", dumps(body)))
        assert err["field"] == "events[2].data.shooter"
        assert not BattleEvent.objects.filter(battle=battle).exists()

    def test_event_data_from_a_service_caller_is_refused_by_the_service(self, battle, defender, bad):
        """The recording form and the muster call the service directly: it checks too."""
        from battles.services import NewEvent, battle_event_append
        from config.errors import InvalidInput

        with pytest.raises(InvalidInput) as caught:
            battle_event_append(battle_id=battle.id, expected_seq=0, recorded_by=defender,
                                events=[NewEvent("battle_started", {"attacker": bad, "defender": "x"})],
                                as_game_master=True)
        assert caught.value.field == "events[0].data.attacker"
        with pytest.raises(InvalidInput) as caught:
            battle_event_append(battle_id=battle.id, expected_seq=0, recorded_by=defender,
                                events=[NewEvent("battle_started", {"attacker": "a", "defender": "x"}, key=bad)],
                                as_game_master=True)
        assert caught.value.field == "events[0].key"
        assert not BattleEvent.objects.filter(battle=battle).exists()

    def test_character_name_and_nationality_are_400_naming_the_field(self, player_client, bad):
        from campaign.models import Character

        err = error_of(raw_post(player_client, "/api/characters/", dumps({"name": bad, "nationality": "su"})))
        assert err["field"] == "name"
        err = error_of(raw_post(player_client, "/api/characters/", dumps({"name": "Пётр", "nationality": bad})))
        assert err["field"] == "nationality"
        assert not Character.objects.exists()

    def test_roster_lookup_fields_are_400_naming_the_field(self, player_client, roster, bad):
        base = f"/api/rosters/{roster.id}"
        err = error_of(raw_post(player_client, f"{base}/units/", dumps({"kind": "squad", "upgrades": [bad]})))
        assert err["field"].startswith("upgrades")
        err = error_of(raw_post(player_client, f"{base}/fighters/", dumps({"infantry_class": bad})))
        assert err["field"] == "infantry_class"
        err = error_of(raw_post(player_client, f"{base}/vehicles/", dumps({"kind": "tank", "options": [bad]})))
        assert err["field"].startswith("options")
        assert not roster.units.exists() and not roster.fighters.exists()

    def test_roster_import_is_400_naming_the_field(self, player_client, character, bad):
        from rosters.models import Roster

        data = {"format": "shtab-roster", "version": 1, "name": "Отряд", "side": "",
                "units": [{"ref": bad, "kind": "squad"}], "vehicles": [], "fighters": []}
        r = raw_post(player_client, "/api/rosters/import/", dumps({"character": character.pk, "data": data}))
        err = error_of(r)
        assert err["field"] == "data.units[0].ref"
        assert not Roster.objects.exists()

    def test_roster_import_service_refuses_it_too(self, player, character, bad):
        from rosters import services
        from rosters.models import Roster

        data = {"format": "shtab-roster", "version": 1, "name": bad, "side": "", "units": [], "vehicles": [],
                "fighters": []}
        with pytest.raises(Exception) as caught:
            services.roster_import(user=player, character=character, data=data)
        assert getattr(caught.value, "status_code", None) == 400
        assert "name" in json.dumps(caught.value.as_dict(), ensure_ascii=False)
        assert not Roster.objects.exists()

    def test_campaign_api_inputs_are_400_naming_the_field(self, player_client, campaign, battle, defender, bad):
        err = error_of(raw_post(player_client, f"/api/battles/{battle.id}/command/roll/",
                                dumps({"side": bad, "rolls": {}})))
        assert err["field"] == "side"
        err = error_of(raw_post(player_client, f"/api/campaigns/{campaign.id}/join/",
                                dumps({"character": 1, "token": bad})))
        assert err["field"] == "token"

    def test_query_parameter_is_400_naming_it(self, player_client, bad):
        if bad != "a\u0000b":
            pytest.skip("a query string is decoded with replacement: no surrogate survives")
        err = error_of(player_client.get("/api/proposals/", {"status": bad}))
        assert err["field"] == "status"
        err = error_of(player_client.get("/api/rosters/", {"side": bad}))
        assert err["field"] == "side"


@pytest.mark.django_db
def test_nul_in_the_recording_form_is_400_and_stores_nothing(battle, defender):
    client = Client()
    client.force_login(defender)
    r = client.post(f"/battles/{battle.id}/record/", {"form": "battle_started", "expected_seq": "0",
                                                      "token": "t\u0000x", "attacker": "a\u0000b", "defender": "x"})
    assert r.status_code == 400
    assert not BattleEvent.objects.filter(battle=battle).exists()


# --- 2. depth and size of event data ----------------------------------------------------
def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.django_db
@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deeply_nested_body_is_400_not_a_crash(defender_client, battle, depth):
    body = '{"expected_seq": 0, "events": [{"type": "battle_started", "data": {"attacker": ' + nested(depth) + "}}]}"
    err = error_of(raw_post(defender_client, f"/api/battles/{battle.id}/events/", body))
    assert err["field"]
    assert not BattleEvent.objects.filter(battle=battle).exists()


@pytest.mark.django_db
def test_event_data_deeper_than_the_cap_is_400_naming_the_field(defender_client, battle):
    from battles.log.checks import EVENT_DATA_MAX_DEPTH

    data = {"attacker": json.loads(nested(EVENT_DATA_MAX_DEPTH + 1)), "defender": "x"}
    body = {"expected_seq": 0, "events": [{"type": "battle_started", "data": data}]}
    err = error_of(defender_client.post(f"/api/battles/{battle.id}/events/", body, format="json"))
    assert err["field"] == "events[0].data"
    assert not BattleEvent.objects.filter(battle=battle).exists()


@pytest.mark.django_db
def test_event_data_larger_than_the_cap_is_400_naming_the_field(defender_client, battle):
    from battles.log.checks import EVENT_DATA_MAX_BYTES

    data = {"attacker": "x" * EVENT_DATA_MAX_BYTES, "defender": "x"}
    body = {"expected_seq": 0, "events": [{"type": "battle_started", "data": data}]}
    err = error_of(defender_client.post(f"/api/battles/{battle.id}/events/", body, format="json"))
    assert err["field"] == "events[0].data"
    assert not BattleEvent.objects.filter(battle=battle).exists()


def test_the_caps_are_documented():
    from pathlib import Path

    from battles.engine.docs import HEADER
    from battles.log.checks import EVENT_DATA_MAX_BYTES, EVENT_DATA_MAX_DEPTH

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for text in (readme, HEADER):
        assert f"{EVENT_DATA_MAX_DEPTH} levels" in text and f"{EVENT_DATA_MAX_BYTES // 1024} KB" in text


# --- 3. paging parameters -----------------------------------------------------------------
PAGED = [
    ("/api/campaigns/{campaign}/standings/", ("limit", "offset")),
    ("/api/battles/{battle}/events/", ("limit", "after")),
    ("/api/events/", ("limit", "after_position")),
]


@pytest.mark.django_db
@pytest.mark.parametrize("url,params", PAGED)
@pytest.mark.parametrize("value", ["-1", "abc", "1.5", "99999999999999999999999"])
def test_bad_paging_parameter_is_400_naming_it(anon_client, campaign, battle, url, params, value):
    for name in params:
        r = anon_client.get(url.format(campaign=campaign.id, battle=battle.id), {name: value})
        err = error_of(r)
        assert err["field"] == name


@pytest.mark.django_db
def test_paging_still_works(anon_client, campaign):
    r = anon_client.get(f"/api/campaigns/{campaign.id}/standings/", {"limit": "5", "offset": "0"})
    assert r.status_code == 200 and r.json()["count"] == 0


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/battles/{big}/", "/api/campaigns/{big}/standings/", "/api/rosters/{big}/",
                                 "/battles/{big}/"])
def test_an_id_beyond_the_database_integer_is_404(player_client, url):
    r = player_client.get(url.format(big=10**30))
    assert r.status_code == 404


# --- 4. errors raised outside DRF use the JSON shape ----------------------------------------
@pytest.mark.django_db
def test_a_body_over_the_upload_limit_is_a_json_error(defender_client, battle):
    body = '{"expected_seq": 0, "events": [], "pad": "' + "x" * (3 * 1024 * 1024) + '"}'
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1024 * 1024):
        r = raw_post(defender_client, f"/api/battles/{battle.id}/events/", body)
        err = error_of(r, 413)
    assert err["field"] == "body"
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1024):
        r = Client().post("/api/auth/token/", {"username": "x" * 5000, "password": "y"})
        error_of(r, 413)


@pytest.mark.django_db
def test_unknown_api_path_and_wrong_method_are_json(anon_client, player_client):
    err = error_of(Client().get("/api/no-such-thing/"), 404)
    assert err["code"] == "not_found"
    err = error_of(player_client.delete("/api/event-types/"), 405)
    assert err["code"] == "method_not_allowed"
    assert error_of(anon_client.get("/api/battles/424242/"), 404)["code"] == "not_found"


@pytest.mark.django_db
def test_html_pages_keep_html_errors():
    r = Client().get("/no-such-page/")
    assert r.status_code == 404 and r["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_disallowed_host_on_the_api_is_a_json_400():
    err = error_of(Client(HTTP_HOST="evil.example").get("/api/event-types/"), 400)
    assert err["field"] == "Host"


@pytest.mark.django_db
def test_malformed_json_is_a_bilingual_parse_error(defender_client, battle):
    err = error_of(raw_post(defender_client, f"/api/battles/{battle.id}/events/", '{"expected_seq": '))
    assert err["code"] == "parse_error" and err["field"] == "body"


@pytest.mark.django_db
def test_unauthenticated_write_is_a_bilingual_error(anon_client, battle):
    err = error_of(anon_client.post(f"/api/battles/{battle.id}/events/", {}, format="json"), 401)
    assert err["code"] == "not_authenticated"


@pytest.mark.django_db(transaction=True)
def test_database_outage_is_a_json_503_with_retry_after(monkeypatch, campaign):
    from campaign import selectors

    def down(*args, **kwargs):
        raise OperationalError("could not connect to server: Connection refused")

    monkeypatch.setattr(selectors, "standings_table", down)
    client = Client(raise_request_exception=False)
    r = client.get(f"/api/campaigns/{campaign.id}/standings/")
    err = error_of(r, 503)
    assert err["code"] == "service_unavailable" and r["Retry-After"]


@pytest.mark.django_db(transaction=True)
def test_database_outage_outside_drf_is_a_json_503(monkeypatch):
    """The outage may strike before a DRF view runs (here: the session store)."""
    from django.contrib.sessions.backends import db as session_db

    def down(self, *args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(session_db.SessionStore, "load", down)
    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = "x" * 32
    r = client.get("/api/event-types/")
    assert error_of(r, 503)["code"] == "service_unavailable" and r["Retry-After"]


@pytest.mark.django_db(transaction=True)
def test_an_unexpected_api_error_is_a_json_500(monkeypatch):
    from battles import engine

    def boom():
        raise RuntimeError("bug")

    monkeypatch.setattr(engine, "vocabulary", boom)
    r = Client(raise_request_exception=False).get("/api/event-types/")
    err = error_of(r, 500)
    assert err["code"] == "server_error"


# --- 5. the response schema ---------------------------------------------------------------
@pytest.mark.django_db
def test_character_photo_is_an_absolute_uri(anon_client, player):
    from django.core.files.base import ContentFile

    from campaign.models import Character, Nationality

    c = Character.objects.create(owner=player, name="Пётр", nationality=Nationality.objects.get(code="su"))
    c.photo.save("p.png", ContentFile(b"not really a png"), save=True)
    for url, pick in (("/api/characters/", lambda b: b[0]), (f"/api/characters/{c.pk}/", lambda b: b["character"])):
        photo = pick(anon_client.get(url).json())["photo"]
        assert photo.startswith("http://testserver/"), photo
