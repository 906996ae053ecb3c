"""Every answer carries the security headers, an error answer too (issue 27 §3): the API's JSON answers
made around the view (``config.middleware.ApiErrorMiddleware``: an unknown /api/ path, a body too large, a
Host this server does not serve, a NUL in the query) have the same Content-Security-Policy,
X-Content-Type-Options, X-Frame-Options, Referrer-Policy, Permissions-Policy and Cross-Origin-Opener-Policy
as a normal API answer, and so has a page's refusal of a NUL in its query."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

HEADERS = ["Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy",
           "Permissions-Policy", "Cross-Origin-Opener-Policy"]


def security(response) -> dict[str, str | None]:
    return {h: response.headers.get(h) for h in HEADERS}


def too_large(client):
    return client.post("/api/battles/1/events/", b"{}", content_type="application/json",
                       CONTENT_LENGTH=str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1))


def too_many_fields(client):
    body = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    return client.post("/api/battles/1/events/", body, content_type="application/x-www-form-urlencoded")


ERRORS = {
    "unknown api path": (lambda c: c.get("/api/no-such-thing/"), 404),
    "body too large": (too_large, 413),
    "a form of too many fields": (too_many_fields, 413),
    "bad host": (lambda c: c.get("/api/event-types/", HTTP_HOST="evil.example"), 400),
    "nul in the query": (lambda c: c.get("/api/event-types/?q=a%00b"), 400),
    "nul in a page's query": (lambda c: c.get("/accounts/login/?q=a%00b"), 400),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(ERRORS))
def test_an_error_answer_carries_the_headers_of_a_normal_api_answer(case):
    client = Client()
    normal = client.get("/api/event-types/")
    assert normal.status_code == 200 and all(security(normal).values()), security(normal)
    ask, status = ERRORS[case]
    r = ask(client)
    assert r.status_code == status, r.content[:300]
    assert r["Content-Type"].startswith("text/html" if "page" in case else "application/json")
    assert security(r) == security(normal)
