"""The append endpoint's lean path (battles.api_fast) answers a token's POST
exactly as the DRF view does: every test of test_append_api runs again here
with token clients (so the lean path answers), and a side-by-side check
compares its bodies with the DRF view's, byte for byte, error by error."""
import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from battles import api_fast
from battles.models import BattleEvent
from battles.services import battle_create
from tests.battles.test_append_api import START, TestAppend, url


def token_client(user):
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION="Token " + Token.objects.get_or_create(user=user)[0].key)
    return client


@pytest.fixture
def defender_client(defender):
    return token_client(defender)


@pytest.fixture
def attacker_client(attacker):
    return token_client(attacker)


@pytest.fixture
def gm_client(game_master):
    return token_client(game_master)


@pytest.fixture
def player_client(player):
    return token_client(player)


@pytest.fixture
def lean_calls(monkeypatch):
    """Counts the appends the lean path answered itself."""
    answered = []
    real = api_fast.lean_append

    def spy(request, battle_id):
        response = real(request, battle_id)
        if response is not None:
            answered.append(response.status_code)
        return response

    monkeypatch.setattr(api_fast, "lean_append", spy)
    return answered


@pytest.mark.django_db
class TestAppendOverTheLeanPath(TestAppend):
    """test_append_api's tests, with token clients."""

    def test_the_lean_path_answers_a_token_append(self, defender_client, battle, lean_calls):
        r = defender_client.post(url(battle), {"expected_seq": 0, "events": [START]}, format="json")
        assert r.status_code == 201 and lean_calls == [201]


def _normalised(body):
    """Positions and timestamps differ between two battles; nothing else may."""
    if isinstance(body, list):
        return [{k: v for k, v in e.items() if k not in ("position", "recorded_at")} for e in body]
    return body


TURN = {"type": "turn_ended", "data": {"side": "defender", "turn": 1}}
SCENARIOS = [
    ("stored", [{"expected_seq": 0, "events": [{**START, "key": "a"}, {**TURN, "key": "b"}]}]),
    ("retry", [{"expected_seq": 0, "events": [{**START, "key": "a"}]}] * 2),
    ("stale", [{"expected_seq": 0, "events": [START]}, {"expected_seq": 0, "events": [TURN]}]),
    ("key misuse", [{"expected_seq": 0, "events": [{**START, "key": "a"}]},
                    {"expected_seq": None, "events": [{**TURN, "key": "a"}]}]),
    ("rule", [{"expected_seq": 0, "events": [START, {"type": "turn_ended",
                                                     "data": {"side": "attacker", "turn": 1}}]}]),
    ("field", [{"expected_seq": 0, "events": [{"type": "battle_started", "data": {"attacker": "A"}}]}]),
    ("unknown field", [{"expected_seq": 0, "events": [START], "extra": 1}]),
    ("not an object", [[1, 2]]),
    ("correction", [{"expected_seq": 0, "events": [START]},
                    {"expected_seq": 1, "events": [{"type": "correction", "data": {"voids": 1, "reason": "x"}}]}]),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "bodies"), SCENARIOS, ids=[s[0] for s in SCENARIOS])
@pytest.mark.parametrize("language", ["ru", "en"])
def test_lean_answers_equal_the_drf_views(campaign, defender, monkeypatch, name, bodies, language):
    from battles.models import BattleParticipant

    def run(lean):
        b = battle_create(campaign=campaign, name=f"{name} {lean}")
        part = BattleParticipant.objects.filter(character__owner=defender).first()
        BattleParticipant.objects.create(battle=b, character=part.character, side="defender")
        client = token_client(defender)
        answers = []
        with monkeypatch.context() as m:
            if not lean:
                m.setattr(api_fast, "lean_append", lambda request, battle_id: None)
            for body in bodies:
                r = client.post(url(b), json.dumps(body), content_type="application/json",
                                HTTP_ACCEPT_LANGUAGE=language)
                answers.append((r.status_code, _normalised(r.json())))
        return answers, list(BattleEvent.objects.filter(battle=b).order_by("seq").values_list("seq", "type", "data"))

    assert run(True) == run(False)


@pytest.mark.django_db
def test_a_stranger_with_a_token_is_refused_before_the_body_is_read(battle, outsider, lean_calls):
    r = token_client(outsider).post(url(battle), b"{not json", content_type="application/json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_participant" and lean_calls == [403]


@pytest.mark.django_db
@pytest.mark.parametrize("header", ["Token nope", "Token", "Bearer x"])
def test_a_bad_token_gets_the_drf_views_answer(battle, header, lean_calls):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    r = client.post(url(battle), {"expected_seq": 0, "events": [START]}, format="json")
    assert r.status_code in (401, 403) and lean_calls == [] and "error" in r.json()


@pytest.mark.django_db
def test_a_body_that_does_not_parse_gets_the_drf_views_answer(defender_client, battle, lean_calls):
    r = defender_client.post(url(battle), b'{"expected_seq": 0, "events": [', content_type="application/json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "parse_error" and lean_calls == []


@pytest.mark.django_db
def test_an_unknown_battle_gets_the_drf_views_404(defender_client, battle, lean_calls):
    r = defender_client.post("/api/battles/987654/events/", {"expected_seq": 0, "events": [START]}, format="json")
    assert r.status_code == 404 and lean_calls == []


# --- the token and role cache (SHTAB["TOKEN_CACHE_SECONDS"], docs/append.md) ------------------------
@pytest.fixture
def clock(monkeypatch, settings):
    settings.SHTAB = {**settings.SHTAB, "TOKEN_CACHE_SECONDS": 5}
    now = [1000.0]
    monkeypatch.setattr(api_fast, "_clock", lambda: now[0])
    api_fast.forget_roles()
    return now


def _turn(client, battle, seq):
    return client.post(url(battle), {"expected_seq": None, "events": [
        {"type": "turn_ended", "data": {"side": "defender", "turn": seq}}]}, format="json")


@pytest.mark.django_db
def test_a_token_revoked_in_another_process_stops_working_after_the_ttl(defender_client, defender, battle, clock,
                                                                         lean_calls):
    assert defender_client.post(url(battle), {"expected_seq": 0, "events": [START]}, format="json").status_code == 201
    # Another process's change, which sends no signal here: a bulk update of the key.
    Token.objects.filter(user=defender).update(key="b" * 40)
    clock[0] += 4.9
    assert _turn(defender_client, battle, 1).status_code == 201  # the documented staleness: within the TTL
    clock[0] += 0.2
    r = _turn(defender_client, battle, 2)
    assert r.status_code == 401 and lean_calls == [201, 201]
    assert BattleEvent.objects.filter(battle=battle).count() == 2


@pytest.mark.django_db
def test_with_a_ttl_of_zero_a_revoked_token_stops_at_once(defender_client, defender, battle, settings, lean_calls):
    settings.SHTAB = {**settings.SHTAB, "TOKEN_CACHE_SECONDS": 0}
    assert defender_client.post(url(battle), {"expected_seq": 0, "events": [START]}, format="json").status_code == 201
    Token.objects.filter(user=defender).update(key="c" * 40)
    assert _turn(defender_client, battle, 1).status_code == 401 and lean_calls == [201]


@pytest.mark.django_db
@pytest.mark.parametrize("change", ["token deleted", "user deactivated", "participant removed", "character given away"])
def test_a_change_made_in_this_process_counts_at_once(defender_client, defender, battle, clock, change, outsider):
    from battles.models import BattleParticipant

    assert defender_client.post(url(battle), {"expected_seq": 0, "events": [START]}, format="json").status_code == 201
    if change == "token deleted":
        Token.objects.filter(user=defender).delete()
    elif change == "user deactivated":
        defender.is_active = False
        defender.save()
    elif change == "participant removed":
        BattleParticipant.objects.filter(battle=battle, character__owner=defender).delete()
    else:
        for p in BattleParticipant.objects.filter(battle=battle, character__owner=defender):
            p.character.owner = outsider
            p.character.save()
    assert _turn(defender_client, battle, 1).status_code in (401, 403)
    assert BattleEvent.objects.filter(battle=battle).count() == 1


@pytest.mark.django_db
def test_a_game_master_role_taken_away_counts_at_once(gm_client, game_master, battle, clock):
    from django.contrib.auth.models import Group

    assert gm_client.post(url(battle), {"expected_seq": 0, "events": [START]}, format="json").status_code == 201
    game_master.groups.remove(Group.objects.get(name="game_master"))
    r = gm_client.post(url(battle), {"expected_seq": 1, "events": [
        {"type": "turn_ended", "data": {"side": "defender", "turn": 1}}]}, format="json")
    assert r.status_code == 403


@pytest.mark.django_db
def test_the_cache_answers_without_a_query(defender_client, battle, clock, django_assert_max_num_queries, lean_calls):
    """What the cache is for: the second append reads no token, user, group or participant."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    defender_client.post(url(battle), {"expected_seq": 0, "events": [START]}, format="json")
    with CaptureQueriesContext(connection) as queries:
        assert _turn(defender_client, battle, 1).status_code == 201
    assert not [q for q in queries.captured_queries if "authtoken_token" in q["sql"]]
    assert lean_calls == [201, 201]
