"""Production security headers (issue 10): a Content-Security-Policy that
allows scripts only from our own files or with the response's nonce (never
'unsafe-inline' for scripts), and Referrer-Policy, X-Content-Type-Options,
X-Frame-Options, Cross-Origin-Opener-Policy and Permissions-Policy."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from csp.utils import build_policy
from django.conf import settings
from django.test import Client, override_settings

ROOT = Path(__file__).resolve().parent.parent


def directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/api/campaigns/", "/admin/login/", "/api/docs/",
                                 "/api/redoc/"])
def test_every_answer_carries_the_security_headers(url):
    r = Client().get(url)
    assert r.status_code == 200
    csp = directives(r["Content-Security-Policy"])
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"] and csp["base-uri"] == ["'self'"]
    assert "'unsafe-inline'" not in csp["script-src"] and "'unsafe-eval'" not in csp["script-src"]
    assert r["X-Content-Type-Options"] == "nosniff"
    assert r["Referrer-Policy"] == "same-origin"
    assert r["X-Frame-Options"] == "DENY"
    assert r["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in r["Permissions-Policy"] and "geolocation=()" in r["Permissions-Policy"]


@pytest.mark.django_db
def test_an_inline_script_runs_only_with_this_responses_nonce(player, client):
    # the roster form's script (the battle page's is a static file since issue 30)
    client.force_login(player)
    pages = [client.get("/rosters/new/") for _ in range(2)]
    nonces = []
    for r in pages:
        csp = directives(r["Content-Security-Policy"])
        nonce = [s for s in csp["script-src"] if s.startswith("'nonce-")]
        assert len(nonce) == 1, csp["script-src"]
        value = nonce[0][len("'nonce-"):-1]
        assert f'<script nonce="{value}">' in r.content.decode()
        nonces.append(value)
    assert nonces[0] != nonces[1], "a nonce is fresh for every response"


@pytest.mark.django_db
def test_the_policy_built_once_is_the_one_django_csp_builds_for_each_answer(player, client):
    """``config.middleware.CSPMiddleware`` builds the policy once a settings object: an answer's header is
    still the one django-csp builds, with that answer's nonce, and it follows the settings when they change."""
    assert client.get("/api/campaigns/")["Content-Security-Policy"] == build_policy()
    client.force_login(player)
    for _ in range(2):
        page = client.get("/rosters/new/")
        nonce = next(s for s in directives(page["Content-Security-Policy"])["script-src"] if s.startswith("'nonce-"))
        assert page["Content-Security-Policy"] == build_policy(nonce=nonce[len("'nonce-"):-1])
    stricter = {"DIRECTIVES": {**settings.CONTENT_SECURITY_POLICY["DIRECTIVES"], "img-src": ["'self'"]}}
    with override_settings(CONTENT_SECURITY_POLICY=stricter):
        r = client.get("/api/campaigns/")
        assert directives(r["Content-Security-Policy"])["img-src"] == ["'self'"]
        assert r["Content-Security-Policy"] == build_policy()
    assert "data:" in directives(client.get("/api/campaigns/")["Content-Security-Policy"])["img-src"]


def test_no_template_has_an_inline_handler_or_a_script_without_nonce():
    """Inline handlers (onclick=…) and nonce-less inline scripts would be
    blocked by the policy: behaviour goes in static/shtab/shtab.js."""
    handler = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
    script = re.compile(r"<script(?![^>]*\b(?:src|nonce)=)[^>]*>", re.I)
    found = []
    for app in ("battles", "campaign", "rosters", "config"):
        for path in (ROOT / app).rglob("templates/**/*.html"):
            text = path.read_text()
            found += [f"{path.relative_to(ROOT)}: {m.group(0)[:60]}" for m in handler.finditer(text)]
            found += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in script.finditer(text)]
    assert not found, "move these into static/shtab/shtab.js or give the script the nonce:\n" + "\n".join(found)
