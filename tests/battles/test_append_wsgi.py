"""The lean append in front of Django (battles.wsgi_fast, config.wsgi): a
token's POST /api/battles/{id}/events/ answered without the middleware chain,
with the same bodies and the same headers as the DRF view behind the whole
chain, and everything unusual handed to Django."""
import gzip
import json

import pytest
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.core.signals import request_finished, request_started
from django.db import OperationalError, close_old_connections
from django.test import RequestFactory
from django.test.client import ClientHandler
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from battles import api_fast, services
from battles.models import BattleEvent, BattleParticipant
from battles.services import battle_create
from battles.wsgi_fast import LeanAppendFront
from tests.battles.test_append_api import START, TestAppend, url
from tests.battles.test_append_lean import SCENARIOS, TURN, _normalised

DJANGO = WSGIHandler()
FRONT = LeanAppendFront(DJANGO)


class _Quiet:
    """As Django's test client does: the test's transaction keeps its connection."""

    def __enter__(self):
        request_started.disconnect(close_old_connections)
        request_finished.disconnect(close_old_connections)

    def __exit__(self, *exc):
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def call(app, path, body=b"", *, method="POST", headers=None, query=""):
    """One WSGI request: (status, headers as a dict, body bytes)."""
    rf = RequestFactory()
    environ = rf.generic(method, path, body, content_type=(headers or {}).pop("CONTENT_TYPE", "application/json"),
                         **(headers or {})).environ
    if query:
        environ["QUERY_STRING"] = query
    got = {}

    def start_response(status, response_headers):
        got["status"] = int(status.split()[0])
        got["headers"] = response_headers

    with _Quiet():
        result = app(environ, start_response)
        try:
            content = b"".join(result)
        finally:
            result.close()
    names = [k.lower() for k, _ in got["headers"]]
    assert len(names) == len(set(names)), got["headers"]
    return got["status"], dict(got["headers"]), content


def token(user):
    return "Token " + Token.objects.get_or_create(user=user)[0].key


@pytest.fixture
def lean_calls(monkeypatch):
    answered = []
    real = api_fast.lean_append

    def spy(request, battle_id):
        response = real(request, battle_id)
        if response is not None:
            answered.append(response.status_code)
        return response

    monkeypatch.setattr(api_fast, "lean_append", spy)
    return answered


@pytest.fixture
def front_calls(monkeypatch):
    """The answers the front gave itself (Django's own lean view, behind the chain, is not counted)."""
    answered = []
    real = FRONT.answer

    def spy(environ, battle_id):
        response = real(environ, battle_id)
        if response is not None:
            answered.append(response.status_code)
        return response

    monkeypatch.setattr(FRONT, "answer", spy)
    return answered


# --- test_append_api's tests through the front ----------------------------------------------
class FrontHandler(ClientHandler):
    """The test client's handler with the front before it."""

    def __call__(self, environ):
        battle_id = FRONT.recognises(environ)
        if battle_id is not None:
            with _Quiet():
                response = FRONT.answer(environ, battle_id)
            if response is not None:
                response.wsgi_request = WSGIRequest(environ)
                with _Quiet():
                    response.close()
                return response
        return super().__call__(environ)


def front_client(user):
    client = APIClient()
    client.handler = FrontHandler(enforce_csrf_checks=False)
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=token(user))
    return client


@pytest.fixture
def defender_client(defender):
    return front_client(defender)


@pytest.fixture
def attacker_client(attacker):
    return front_client(attacker)


@pytest.fixture
def gm_client(game_master):
    return front_client(game_master)


@pytest.fixture
def player_client(player):
    return front_client(player)


@pytest.mark.django_db
class TestAppendThroughTheFront(TestAppend):
    """test_append_api's tests, with token clients whose appends the front answers."""

    def test_the_front_answers_a_token_append(self, defender_client, battle, lean_calls):
        r = defender_client.post(url(battle), {"expected_seq": 0, "events": [START]}, format="json")
        assert r.status_code == 201 and lean_calls == [201]


# --- side by side with the DRF view behind the whole middleware chain ------------------------
def _table(campaign, defender, name):
    b = battle_create(campaign=campaign, name=name)
    part = BattleParticipant.objects.filter(character__owner=defender).first()
    BattleParticipant.objects.create(battle=b, character=part.character, side="defender")
    return b


def _run(app, b, bodies, headers, monkeypatch, *, lean):
    answers = []
    with monkeypatch.context() as m:
        if not lean:
            m.setattr(api_fast, "lean_append", lambda request, battle_id: None)
        for body in bodies:
            answers.append(call(app, url(b), json.dumps(body).encode(), headers=dict(headers)))
    return answers


def _same_headers(lean, drf):
    """Every header the same but the length of a body that names another battle's positions and times."""
    assert {k: v for k, v in lean.items() if k != "Content-Length"} == \
        {k: v for k, v in drf.items() if k != "Content-Length"}


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "bodies"), SCENARIOS, ids=[s[0] for s in SCENARIOS])
@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_fronts_answers_equal_the_drf_views_behind_the_middleware(campaign, defender, monkeypatch, name, bodies,
                                                                       language, lean_calls):
    headers = {"HTTP_AUTHORIZATION": token(defender), "HTTP_ACCEPT_LANGUAGE": language}
    lean = _run(FRONT, _table(campaign, defender, f"{name} lean"), bodies, headers, monkeypatch, lean=True)
    assert len(lean_calls) == len(bodies)
    drf = _run(DJANGO, _table(campaign, defender, f"{name} drf"), bodies, headers, monkeypatch, lean=False)
    for (ls, lh, lb), (ds, dh, db) in zip(lean, drf, strict=True):
        assert ls == ds
        assert _normalised(json.loads(lb)) == _normalised(json.loads(db))
        _same_headers(lh, dh)
        assert int(lh["Content-Length"]) == len(lb)
        assert lh["Content-Language"] == language
        for h in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
                  "Cross-Origin-Opener-Policy", "Permissions-Policy"):
            assert lh[h], h


@pytest.mark.django_db
def test_the_lean_answer_is_byte_for_byte_the_in_django_lean_views(campaign, defender, front_calls):
    """The same battle, the same request (a retry, so both read the same stored events), once
    through the front and once through the whole chain (where api_fast.battle_events answers it):
    the same bytes and headers."""
    b = _table(campaign, defender, "bytes")
    headers = {"HTTP_AUTHORIZATION": token(defender)}
    body = json.dumps({"expected_seq": 0, "events": [{**START, "key": "a"}, {**TURN, "key": "b"}]}).encode()
    assert call(DJANGO, url(b), body, headers=dict(headers))[0] == 201
    front = call(FRONT, url(b), body, headers=dict(headers))
    chain = call(DJANGO, url(b), body, headers=dict(headers))
    assert front[0] == chain[0] == 200 and front_calls == [200]
    assert front[2] == chain[2] and front[1] == chain[1]


@pytest.mark.django_db
def test_gzip_for_a_client_that_asks(campaign, defender, monkeypatch):
    headers = {"HTTP_AUTHORIZATION": token(defender), "HTTP_ACCEPT_ENCODING": "gzip"}
    body = {"expected_seq": 0, "events": [START, TURN]}
    (ls, lh, lb), = _run(FRONT, _table(campaign, defender, "gz lean"), [body], headers, monkeypatch, lean=True)
    (ds, dh, db), = _run(DJANGO, _table(campaign, defender, "gz drf"), [body], headers, monkeypatch, lean=False)
    assert ls == ds == 201 and lh["Content-Encoding"] == dh["Content-Encoding"] == "gzip"
    assert _normalised(json.loads(gzip.decompress(lb))) == _normalised(json.loads(gzip.decompress(db)))
    _same_headers(lh, dh)


# --- what goes to Django -----------------------------------------------------------------------
@pytest.mark.django_db
def test_a_host_django_refuses_gets_djangos_json_400(defender, battle, lean_calls):
    status, _, body = call(FRONT, url(battle), json.dumps({"expected_seq": 0, "events": [START]}).encode(),
                           headers={"HTTP_AUTHORIZATION": token(defender), "HTTP_HOST": "evil.example"})
    assert status == 400 and json.loads(body)["error"]["field"] == "Host" and lean_calls == []
    assert not BattleEvent.objects.filter(battle=battle).exists()


@pytest.mark.django_db
def test_a_body_over_the_limit_gets_djangos_413(defender, battle, lean_calls, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 50
    status, _, body = call(FRONT, url(battle), json.dumps({"expected_seq": 0, "events": [START]}).encode(),
                           headers={"HTTP_AUTHORIZATION": token(defender)})
    assert status == 413 and json.loads(body)["error"]["code"] == "too_large" and lean_calls == []


@pytest.mark.django_db
@pytest.mark.parametrize("case", ["query", "get", "no token", "other path"])
def test_other_requests_go_to_django(defender, battle, front_calls, case):
    path = url(battle) if case != "other path" else f"/api/battles/{battle.id}/state/"
    headers = {"HTTP_AUTHORIZATION": token(defender)} if case != "no token" else {}
    status, _, body = call(FRONT, path, json.dumps({"expected_seq": 0, "events": [START]}).encode(),
                           method="GET" if case == "get" else "POST", headers=headers,
                           query="x=1" if case == "query" else "")
    assert front_calls == []
    assert status == {"query": 201, "get": 200, "no token": 401, "other path": 405}[case], body


@pytest.mark.django_db
def test_what_the_lean_path_hands_back_reaches_django_with_its_body(defender, battle, lean_calls):
    """A body that does not parse is read by the lean path and read again by DRF, which names it."""
    status, _, body = call(FRONT, url(battle), b'{"expected_seq": 0, "events": [',
                           headers={"HTTP_AUTHORIZATION": token(defender)})
    assert status == 400 and json.loads(body)["error"]["code"] == "parse_error" and lean_calls == []


@pytest.mark.django_db
def test_an_unknown_token_gets_drfs_answer(battle, lean_calls):
    status, _, body = call(FRONT, url(battle), json.dumps({"expected_seq": 0, "events": [START]}).encode(),
                           headers={"HTTP_AUTHORIZATION": "Token nope"})
    assert status == 401 and "error" in json.loads(body) and lean_calls == []


@pytest.mark.django_db
def test_a_database_outage_is_the_same_503_as_djangos(campaign, defender, monkeypatch):
    def down(**kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(services, "battle_event_append", down)
    headers = {"HTTP_AUTHORIZATION": token(defender)}
    body = json.dumps({"expected_seq": 0, "events": [START]}).encode()
    lean = call(FRONT, url(_table(campaign, defender, "down lean")), body, headers=dict(headers))
    with monkeypatch.context() as m:
        m.setattr(api_fast, "lean_append", lambda request, battle_id: None)
        drf = call(DJANGO, url(_table(campaign, defender, "down drf")), body, headers=dict(headers))
    assert lean[0] == drf[0] == 503 and lean[1]["Retry-After"] == drf[1]["Retry-After"]
    assert json.loads(lean[2]) == json.loads(drf[2])
    _same_headers(lean[1], drf[1])


@pytest.mark.django_db
def test_the_front_sends_request_started_and_finished_once(defender, battle):
    seen = []

    def started(**kw):
        seen.append("started")

    def finished(**kw):
        seen.append("finished")

    request_started.connect(started)
    request_finished.connect(finished)
    try:
        status, _, _ = call(FRONT, url(battle), json.dumps({"expected_seq": 0, "events": [START]}).encode(),
                            headers={"HTTP_AUTHORIZATION": token(defender)})
    finally:
        request_started.disconnect(started)
        request_finished.disconnect(finished)
    assert status == 201 and seen == ["started", "finished"]


def test_the_front_mirrors_the_chain(settings):
    """A changed MIDDLEWARE sends every append to Django until the front is reviewed against it."""
    from battles import wsgi_fast

    assert tuple(settings.MIDDLEWARE) == wsgi_fast.MIRRORED, "review battles/wsgi_fast.py against the new chain"


def test_the_front_mirrors_productions_chain():
    """config.settings.production's MIDDLEWARE (base's with WhiteNoise) is one the front takes."""
    import ast
    from pathlib import Path

    from battles import wsgi_fast

    source = (Path(__file__).resolve().parents[2] / "config" / "settings" / "production.py").read_text()
    namespace = {"MIDDLEWARE": list(wsgi_fast.MIRRORED)}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") in ("_SECURITY", "MIDDLEWARE")
                                                for t in node.targets):
            exec(compile(ast.Module([node], []), "production.py", "exec"), namespace)
    assert tuple(namespace["MIDDLEWARE"]) in wsgi_fast.MIRRORED_CHAINS


@pytest.mark.django_db
def test_a_changed_chain_sends_the_append_to_django(defender, battle, front_calls, settings):
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if "gzip" not in m]
    status, _, _ = call(FRONT, url(battle), json.dumps({"expected_seq": 0, "events": [START]}).encode(),
                        headers={"HTTP_AUTHORIZATION": token(defender)})
    assert status == 201 and front_calls == []


def test_config_wsgi_puts_the_front_before_django():
    from config import wsgi

    assert isinstance(wsgi.application, LeanAppendFront) and isinstance(wsgi.application.app, WSGIHandler)
