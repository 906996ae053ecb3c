"""Issue 27 §2: a forgotten password. With mail configured, Django's reset flow
sends the link; without it (the console or dummy backend, or SMTP with no
EMAIL_HOST) the reset page says plainly that the club's server cannot send
mail and to ask the game master, logs an error, and pretends nothing was sent."""
from __future__ import annotations

import logging
import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client, override_settings

SMTP = "django.core.mail.backends.smtp.EmailBackend"
NO_MAIL = [
    {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend", "EMAIL_HOST": "smtp.example.com"},
    {"EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend", "EMAIL_HOST": "smtp.example.com"},
    {"EMAIL_BACKEND": SMTP, "EMAIL_HOST": ""},
]
MAIL = {"EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend", "EMAIL_HOST": "smtp.example.com"}


@pytest.fixture
def ivan(db):
    return User.objects.create_user("ivan", "ivan@example.com", "old-pass-1942")


@pytest.mark.parametrize("conf", NO_MAIL, ids=["console", "dummy", "smtp-without-host"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_without_mail_the_reset_page_says_so_and_logs_an_error(ivan, conf, lang, caplog):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    expected = ("не умеет отправлять почту", "мастеру") if lang == "ru" else ("cannot send e-mail", "game master")
    with override_settings(**conf), caplog.at_level(logging.ERROR):
        page = client.get("/accounts/password_reset/")
        r = client.post("/accounts/password_reset/", {"email": "ivan@example.com"})
    for answer in (page, r):
        assert answer.status_code == 503
        text = answer.content.decode()
        assert all(words in text for words in expected), text
        assert "<form" not in text.split("<main", 1)[-1], "no form that pretends to send"
    assert mail.outbox == []
    assert any(rec.levelno == logging.ERROR and "EMAIL" in rec.getMessage() for rec in caplog.records)


def test_with_mail_configured_the_reset_works_as_djangos(ivan):
    client = Client()
    with override_settings(**MAIL):
        assert client.get("/accounts/password_reset/").status_code == 200
        r = client.post("/accounts/password_reset/", {"email": "ivan@example.com"})
        assert r.status_code == 302 and r["Location"] == "/accounts/password_reset/done/"
        assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ivan@example.com"]
        link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
        form_url = client.get(link)["Location"]
        r = client.post(form_url, {"new_password1": "New-pass-1942!", "new_password2": "New-pass-1942!"})
        assert r.status_code == 302
    ivan.refresh_from_db()
    assert ivan.check_password("New-pass-1942!")


def test_the_login_page_links_to_the_reset(db):
    assert "/accounts/password_reset/" in Client().get("/accounts/login/").content.decode()
