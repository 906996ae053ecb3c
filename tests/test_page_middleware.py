"""Django's page middleware (sessions, the signed-in user, flash messages, the common checks) runs for
every request but an API request that signs in with its token, which passes it untouched
(``config.page_middleware``, issue 26: a tenth of the server's CPU a single-event append)."""
from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse

from config.page_middleware import AuthenticationMiddleware, CommonMiddleware, MessageMiddleware, SessionMiddleware

# (path, Authorization header, whether the page middleware is passed)
CASES = [
    ("/api/battles/1/events/", "Token 0123abcd", True),
    ("/api/battles/1/events/", "", False),  # the API by a signed-in session: it needs the session
    ("/api/battles/1/events/", "Basic dXNlcjpwdw==", False),
    ("/api/battles/1/events/", "token 0123abcd", False),  # DRF's keyword, as it is written
    ("/battles/1/", "Token 0123abcd", False),  # a page, whatever header it carries
]
IDS = ["token API", "session API", "basic API", "lowercase keyword", "page with a token"]


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "auth", "passed"), CASES, ids=IDS)
def test_only_a_token_api_request_passes_the_session_user_and_messages(rf, path, auth, passed):
    seen = {}

    def view(request):
        seen.update(session=hasattr(request, "session"), user=hasattr(request, "user"),
                    messages=hasattr(request, "_messages"))
        return HttpResponse("ok")

    chain = SessionMiddleware(AuthenticationMiddleware(MessageMiddleware(view)))  # as settings.MIDDLEWARE orders them
    request = rf.post(path, HTTP_AUTHORIZATION=auth) if auth else rf.post(path)
    assert chain(request).status_code == 200
    assert seen == {"session": not passed, "user": not passed, "messages": not passed}


@pytest.mark.parametrize(("path", "auth", "passed"), CASES, ids=IDS)
def test_only_a_token_api_request_passes_the_common_checks(rf, settings, path, auth, passed):
    settings.DISALLOWED_USER_AGENTS = [re.compile("badbot")]
    common = CommonMiddleware(lambda request: HttpResponse("ok"))
    request = rf.get(path, HTTP_USER_AGENT="badbot", **({"HTTP_AUTHORIZATION": auth} if auth else {}))
    if passed:
        assert common(request).status_code == 200
    else:
        with pytest.raises(PermissionDenied):
            common(request)


@pytest.mark.django_db
def test_a_token_append_sets_no_cookie_and_a_signed_in_page_still_has_its_session(client):
    from django.contrib.auth.models import Group, User
    from rest_framework.authtoken.models import Token

    from battles.models import Battle
    from campaign.models import Campaign
    from campaign.roles import GAME_MASTER

    gm = User.objects.create_user("master_of_tokens", password="pw-not-a-secret")
    gm.groups.add(Group.objects.get(name=GAME_MASTER))
    battle = Battle.objects.create(campaign=Campaign.objects.create(name="C"), name="B")
    token = Token.objects.create(user=gm)
    r = client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": 0, "events": [
        {"type": "battle_started", "data": {"attacker": "A", "defender": "D"}}]},
        content_type="application/json", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert r.status_code == 201, r.content[:300]
    assert not r.cookies and "Cookie" not in r.get("Vary", "")
    client.force_login(gm)
    page = client.get(f"/battles/{battle.id}/")
    assert page.status_code == 200 and page.wsgi_request.session.session_key
    assert page.wsgi_request.user == gm
