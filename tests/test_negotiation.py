"""The API's content negotiation keeps its choices per header (``config.negotiation``): what it keeps
must be what DRF would choose for that header, never another header's choice, and a refusal is never kept."""
import pytest
from django.test import Client

from config import negotiation


@pytest.fixture(autouse=True)
def nothing_kept():
    negotiation._renderers.clear()
    negotiation._parsers.clear()
    yield
    negotiation._renderers.clear()
    negotiation._parsers.clear()


def get(accept=None, query=""):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    return Client().get(f"/api/event-types/{query}", **headers)


@pytest.mark.django_db
def test_each_accept_header_gets_its_own_renderer_however_often_asked():
    for _ in range(3):  # the first answer of each header is DRF's choice, the next ones the kept one
        assert get("application/json")["Content-Type"] == "application/json"
        assert get("text/html")["Content-Type"].startswith("text/html")  # the browsable API
        assert get()["Content-Type"] == "application/json"
    assert len(negotiation._renderers) == 3


@pytest.mark.django_db
def test_a_format_in_the_query_is_part_of_the_choice():
    assert get("text/html")["Content-Type"].startswith("text/html")
    assert get("text/html", "?format=json")["Content-Type"] == "application/json"
    assert get("text/html")["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_a_refusal_is_answered_anew_and_never_kept():
    for _ in range(2):
        assert get("image/png").status_code == 406
    assert get("text/html", "?format=nothing").status_code == 404
    assert negotiation._renderers == {}


@pytest.mark.django_db
def test_no_more_than_keep_choices_are_kept_and_the_rest_still_negotiated(monkeypatch):
    monkeypatch.setattr(negotiation, "KEEP", 2)
    for q in (0.1, 0.2, 0.3, 0.4):
        assert get(f"application/json;q={q}, text/html;q=0.05")["Content-Type"] == "application/json"
    assert len(negotiation._renderers) == 2
    for _ in range(2):
        assert get("text/html")["Content-Type"].startswith("text/html")
    assert len(negotiation._renderers) == 2


@pytest.mark.django_db
def test_each_content_type_gets_its_own_parser_and_an_unknown_one_is_415_every_time(gm_client):
    for _ in range(2):
        r = gm_client.post("/api/battles/1/events/", data="a=1", content_type="application/x-www-form-urlencoded")
        assert r.status_code == 415
    assert negotiation._parsers == {}
    for _ in range(2):  # parsed as JSON (an unknown battle: the store's 404, after the parser read the body)
        r = gm_client.post("/api/battles/999999/events/", data={"expected_seq": None, "events": []},
                           content_type="application/json")
        assert r.status_code in (400, 404), r.content
    assert len(negotiation._parsers) == 1
    r = gm_client.post("/api/battles/1/events/", data="a=1", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415  # not the JSON parser kept for another content type
