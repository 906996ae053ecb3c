"""The battle page's poll that finds nothing moved (``GET /battles/{id}/live/?since=…&state=…``,
every second from every open page), answered in front of Django (battles.wsgi_fast,
config.wsgi): the same one query and the same bytes and headers as ``battle_live`` behind the
whole chain. A battle that moved, and any other request, go to Django."""
import json

import pytest
from django.core.signals import request_finished, request_started

from battles.services import NewEvent, battle_event_append, battle_replay
from tests.battles.test_append_wsgi import DJANGO, FRONT, START, call


@pytest.fixture
def front_live_calls(monkeypatch):
    """The polls the front answered itself."""
    answered = []
    real = FRONT.answer_live

    def spy(environ, battle_id, since, state):
        response = real(environ, battle_id, since, state)
        if response is not None:
            answered.append(response.status_code)
        return response

    monkeypatch.setattr(FRONT, "answer_live", spy)
    return answered


def started(battle):
    battle_event_append(battle_id=battle.id, events=[NewEvent(START["type"], START["data"])], expected_seq=0,
                        as_game_master=True)
    battle_replay(battle_id=battle.id)  # as the worker would: the projection reaches the head


def get(app, battle, query, **headers):
    return call(app, f"/battles/{battle.id}/live/", method="GET", query=query, headers={"CONTENT_TYPE": "", **headers})


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("encoding", ["", "gzip"])
def test_nothing_moved_is_answered_in_front_with_djangos_bytes_and_headers(battle, front_live_calls, language,
                                                                          encoding):
    started(battle)
    headers = {"HTTP_ACCEPT_LANGUAGE": language, "HTTP_ACCEPT_ENCODING": encoding}
    chain = get(DJANGO, battle, "since=1&state=1", **headers)
    front = get(FRONT, battle, "since=1&state=1", **headers)
    assert front_live_calls == [200]
    assert front == chain
    assert json.loads(front[2]) == {"head_seq": 1, "state_seq": 1, "changed": False}
    assert front[1]["Content-Language"] == language
    for h in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
              "Cross-Origin-Opener-Policy", "Permissions-Policy"):
        assert front[1][h], h


@pytest.mark.django_db
def test_nothing_moved_costs_the_front_one_query(battle, front_live_calls, django_assert_num_queries):
    started(battle)
    with django_assert_num_queries(1):
        status, _, _ = get(FRONT, battle, "since=1&state=1")
    assert status == 200 and front_live_calls == [200]


@pytest.mark.django_db
def test_a_battle_that_moved_goes_to_django_which_renders_the_regions(battle, front_live_calls):
    started(battle)
    status, _, body = get(FRONT, battle, "since=0&state=0")
    d = json.loads(body)
    assert status == 200 and front_live_calls == []
    assert d["changed"] and d["head_seq"] == d["state_seq"] == 1 and "state_html" in d and "log_html" in d


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "query", "headers", "status"), [
    ("the other order", "state=0&since=0", {}, 200),
    ("another parameter", "since=0&state=0&x=1", {}, 200),
    ("not digits", "since=0&state=-1", {}, 200),
    ("a Host Django refuses", "since=0&state=0", {"HTTP_HOST": "evil.example"}, 400),
])
def test_other_polls_go_to_django(battle, front_live_calls, case, query, headers, status):
    got, _, _ = get(FRONT, battle, query, **headers)
    assert got == status and front_live_calls == []


@pytest.mark.django_db
def test_an_unknown_battle_gets_djangos_404(battle, front_live_calls):
    status, _, body = call(FRONT, f"/battles/{battle.id + 1000}/live/", method="GET", query="since=0&state=0",
                           headers={"CONTENT_TYPE": ""})
    assert status == 404 and json.loads(body) == {"error": "not found"} and front_live_calls == []


@pytest.mark.django_db
def test_a_post_goes_to_django(battle, front_live_calls):
    status, _, _ = call(FRONT, f"/battles/{battle.id}/live/", b"", method="POST", query="since=0&state=0",
                        headers={"CONTENT_TYPE": "application/x-www-form-urlencoded"})
    assert status in (403, 405) and front_live_calls == []  # CSRF before the view's require_GET


@pytest.mark.django_db
def test_the_front_sends_request_started_and_finished_once_for_a_poll(battle, front_live_calls):
    seen = []

    def on_started(**kw):
        seen.append("started")

    def on_finished(**kw):
        seen.append("finished")

    request_started.connect(on_started)
    request_finished.connect(on_finished)
    try:
        status, _, _ = get(FRONT, battle, "since=0&state=0")
    finally:
        request_started.disconnect(on_started)
        request_finished.disconnect(on_finished)
    assert status == 200 and front_live_calls == [200] and seen == ["started", "finished"]

