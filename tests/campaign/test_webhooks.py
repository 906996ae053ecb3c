"""Issue 29 §2: webhooks people can build on. Each delivery carries the page's
absolute URL and a delivery id (body and header), is signed with HMAC-SHA256
over the exact body bytes when a secret is set (checked here by the README's
own receiver snippet), and is recorded for the game master's read-only admin.
Delivered to the notification tests' local fake HTTP server: nothing of ours
is mocked."""
from __future__ import annotations

import json
import re
import socket
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from campaign import services
from campaign.models import WebhookDelivery
from campaign.notify import prune_webhook_deliveries

from .test_notifications import channel  # noqa: F401 - the fake channel fixture
from .test_results import finish

SECRET = "s3cret-shared-with-the-receiver"
README = Path(__file__).resolve().parents[2] / "README.md"


def readme_verifier():
    """``verify_signature`` exactly as the README shows it to a receiver's author."""
    snippet = re.search(r"<!-- webhook-verify -->\s*```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert snippet, "README's webhook section lost its verification snippet"
    namespace: dict = {}
    exec(snippet.group(1), namespace)  # noqa: S102 - our own README
    return namespace["verify_signature"]


@pytest.fixture
def webhook(channel, settings):  # noqa: F811 - the fixture imported above
    """The webhook alone (no Telegram), signed, on a site reached at https://club.example."""
    settings.SHTAB = {**settings.SHTAB, "TELEGRAM_BOT_TOKEN": "", "WEBHOOK_SECRET": SECRET,
                      "SITE_URL": "https://club.example/"}
    return channel


def join(campaign, make_player, name, capture):
    _u, character = make_player(name)
    with capture(execute=True):
        return services.membership_request(campaign=campaign, character=character)


@pytest.mark.django_db
def test_a_receiver_verifies_the_signature_and_refuses_a_tampered_body_or_a_wrong_secret(
        webhook, campaign, make_player, django_capture_on_commit_callbacks):
    verify = readme_verifier()
    join(campaign, make_player, "novice", django_capture_on_commit_callbacks)
    [(path, headers, raw)] = webhook.received
    signature = headers["X-Shtab-Signature-256"]
    assert path == "/hook" and re.fullmatch(r"sha256=[0-9a-f]{64}", signature)
    assert verify(raw, signature, SECRET)
    assert b"novice" in raw and not verify(raw.replace(b"novice", b"intruder"), signature, SECRET), "tampered"
    assert not verify(raw + b" ", signature, SECRET), "one byte more passed"
    assert not verify(raw, signature, "another secret"), "a wrong secret passed"
    assert not verify(raw, None, SECRET) and not verify(raw, "", SECRET)
    # The body signed is the body parsed: the receiver's JSON is the message.
    assert json.loads(raw)["text"].startswith("Заявка в «Тестовая кампания»")


@pytest.mark.django_db
def test_the_body_carries_the_pages_absolute_url_and_the_delivery_id(
        webhook, client, campaign, make_player, django_capture_on_commit_callbacks):
    join(campaign, make_player, "novice", django_capture_on_commit_callbacks)
    [(_p, headers, raw)] = webhook.received
    body = json.loads(raw)
    assert body["url"] == f"https://club.example/campaigns/{campaign.pk}/"
    assert client.get(body["url"].removeprefix("https://club.example")).status_code == 200, "the page exists"
    assert str(uuid.UUID(body["delivery"])) == body["delivery"] == headers["X-Shtab-Delivery"]
    assert headers["X-Shtab-Event"] == body["kind"] == "join_requested"
    record = WebhookDelivery.objects.get()
    assert str(record.delivery_id) == body["delivery"] and record.kind == "join_requested"
    assert record.subject == body["text"] and record.target.endswith("/hook")


@pytest.mark.django_db
def test_a_battle_result_links_to_the_battle_page(webhook, client, running, django_capture_on_commit_callbacks):
    from battles import results
    from battles.services import battle_create

    with django_capture_on_commit_callbacks(execute=True):
        battle = battle_create(campaign=running, name="Бой у моста", number=1)
        finish(battle, winner="attacker")
        results.battle_conclude(battle_id=battle.id)
    [body] = [b for _p, b in webhook.requests if b["kind"] == "battle_result"]
    assert body["url"] == f"https://club.example/battles/{battle.pk}/"
    assert client.get(f"/battles/{battle.pk}/").status_code == 200


@pytest.mark.django_db
def test_no_signature_header_without_a_secret(webhook, settings, campaign, make_player,
                                              django_capture_on_commit_callbacks):
    settings.SHTAB = {**settings.SHTAB, "WEBHOOK_SECRET": ""}
    join(campaign, make_player, "novice", django_capture_on_commit_callbacks)
    [(_p, headers, _raw)] = webhook.received
    assert "X-Shtab-Signature-256" not in headers and headers["X-Shtab-Delivery"]


@pytest.mark.django_db
def test_each_delivery_has_its_own_id_and_a_retry_keeps_it(webhook, campaign, make_player,
                                                           django_capture_on_commit_callbacks):
    webhook.statuses = [503]  # the first delivery's first try fails, its retry is taken
    for name in ("anna", "boris", "vera"):
        join(campaign, make_player, name, django_capture_on_commit_callbacks)
    ids = [h["X-Shtab-Delivery"] for _p, h, _r in webhook.received]
    assert len(ids) == 4 and ids[0] == ids[1], "a retry is the same delivery"
    assert len(set(ids)) == 3, "every other delivery has its own id"
    records = {str(r.delivery_id): r for r in WebhookDelivery.objects.all()}
    assert set(records) == set(ids)
    assert (records[ids[0]].attempts, records[ids[0]].outcome, records[ids[0]].status_code) == (2, "delivered", 200)
    assert all(records[i].attempts == 1 and records[i].outcome == "delivered" for i in ids[2:])
    assert all(records[i].finished_at for i in ids)


@pytest.mark.django_db
def test_a_failed_delivery_is_recorded_with_its_error(webhook, campaign, make_player,
                                                      django_capture_on_commit_callbacks):
    webhook.statuses = [500] * 10
    join(campaign, make_player, "novice", django_capture_on_commit_callbacks)
    record = WebhookDelivery.objects.get()
    assert (record.outcome, record.status_code, record.attempts) == ("failed", 500, 4)  # 1 + NOTIFY_RETRIES
    assert "500" in record.error and record.finished_at


@pytest.mark.django_db
def test_a_refused_delivery_is_final_and_an_unreachable_receiver_is_recorded(
        webhook, settings, campaign, make_player, django_capture_on_commit_callbacks):
    webhook.statuses = [404]  # a 4xx will not pass on a retry
    join(campaign, make_player, "anna", django_capture_on_commit_callbacks)
    refused = WebhookDelivery.objects.get()
    assert (refused.outcome, refused.status_code, refused.attempts) == ("failed", 404, 1)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings.SHTAB = {**settings.SHTAB, "NOTIFY_WEBHOOK_URL": f"http://127.0.0.1:{port}/in?token=x"}
    join(campaign, make_player, "boris", django_capture_on_commit_callbacks)
    down = WebhookDelivery.objects.exclude(pk=refused.pk).get()
    assert (down.outcome, down.status_code, down.attempts) == ("failed", None, 4)
    assert down.error and "refused" in down.error.lower()
    assert down.target == f"http://127.0.0.1:{port}/in", "no token kept"


@pytest.mark.django_db
def test_the_game_master_sees_deliveries_and_failures_in_the_read_only_admin(
        webhook, client, game_master, campaign, make_player, django_capture_on_commit_callbacks):
    join(campaign, make_player, "anna", django_capture_on_commit_callbacks)
    webhook.statuses = [500] * 10
    join(campaign, make_player, "boris", django_capture_on_commit_callbacks)
    delivered, failed = WebhookDelivery.objects.get(outcome="delivered"), WebhookDelivery.objects.get(outcome="failed")
    client.force_login(game_master)
    url = "/admin/campaign/webhookdelivery/"
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Доставки вебхуков" in html and "заявка на участие" in html
    assert failed.subject in html and delivered.subject in html
    assert "<strong>не доставлено</strong>" in html and "доставлено" in html
    assert "получатель ответил: HTTP 500" in html
    assert "За последние сутки не доставлена 1 отправка вебхука." in html, "the failure is announced"
    words = re.sub(r"<[^>]*>", " ", html)
    assert not re.search(r"\b(failed|delivered|pending|join_requested)\b", words), "no raw key is shown"
    only_failed = client.get(url + "?outcome__exact=failed", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert failed.subject in only_failed and delivered.subject not in only_failed
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Webhook deliveries" in english and "<strong>failed</strong>" in english
    assert "the receiver answered HTTP 500" in english
    # Read-only: he reads a delivery but adds, changes or deletes none.
    page = client.get(f"{url}{failed.pk}/change/", HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 200 and str(failed.delivery_id) in page.content.decode()
    assert client.get(f"{url}add/").status_code == 403
    assert client.post(f"{url}{failed.pk}/delete/", {"post": "yes"}).status_code == 403
    client.post(f"{url}{failed.pk}/change/", {"outcome": "delivered"})
    failed.refresh_from_db()
    assert failed.outcome == "failed"
    assert f'href="{url}add/"' not in html and "delete_selected" not in html


@pytest.mark.django_db
def test_old_deliveries_are_pruned(settings):
    settings.SHTAB = {**settings.SHTAB, "WEBHOOK_KEEP_DAYS": 30}
    now = timezone.now()
    for age in (31, 29, 0):
        WebhookDelivery.objects.create(delivery_id=uuid.uuid4(), kind="promotion", target="https://x/h",
                                       subject=f"{age} days", created_at=now - timedelta(days=age))
    assert prune_webhook_deliveries.run() == 1
    assert sorted(WebhookDelivery.objects.values_list("subject", flat=True)) == ["0 days", "29 days"]
    assert "prune-webhook-deliveries" in settings.CELERY_BEAT_SCHEDULE
