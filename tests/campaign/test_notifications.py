"""Issue 13: notifications to the club's channel, delivered to a local fake
HTTP server (a thread running http.server) standing in for the webhook and the
Telegram Bot API: nothing of ours is mocked. Off unless configured; sent after
commit; names, not ids; translated; retried on 5xx; never twice for one event."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from campaign import services
from campaign.models import AwardRule, Proposal

from .test_results import finish


class FakeChannel:
    """Records every POST (parsed in ``requests``; the raw bytes and the headers
    in ``received``); answers with the queued statuses, then 200."""

    def __init__(self):
        self.requests: list[tuple[str, dict]] = []
        self.received: list[tuple[str, Any, bytes]] = []  # headers: an http.client.HTTPMessage (any case)
        self.statuses: list[int] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                outer.received.append((self.path, self.headers, raw))
                body = json.loads(raw.decode("utf-8"))
                outer.requests.append((self.path, body))
                status = outer.statuses.pop(0) if outer.statuses else 200
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"ok": true}' if status == 200 else b'{"ok": false}')

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def texts(self, path_part: str = "") -> list[str]:
        return [b["text"] for p, b in self.requests if path_part in p]


@pytest.fixture
def channel(settings):
    """The fake channel, configured in this process's settings. The delivery
    tasks run in this process too (eagerly, also under CI where other tasks go
    to the real worker): the worker process cannot see the test's settings or
    reach a channel it was not configured with."""
    from config.celery import app

    fake = FakeChannel()
    was_eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    settings.SHTAB = {**settings.SHTAB, "NOTIFY_WEBHOOK_URL": f"{fake.url}/hook", "TELEGRAM_BOT_TOKEN": "123:abc",
                      "TELEGRAM_CHAT_ID": "-100777", "TELEGRAM_API": fake.url, "NOTIFY_LANGUAGE": "ru",
                      "NOTIFY_RETRIES": 3}
    yield fake
    app.conf.task_always_eager = was_eager
    fake.close()


@pytest.mark.django_db
def test_a_join_request_reaches_the_webhook_and_telegram_after_commit(channel, campaign, make_player,
                                                                      django_capture_on_commit_callbacks):
    _u, character = make_player("novice")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.membership_request(campaign=campaign, character=character)
    assert channel.requests == [], "nothing leaves before the commit"
    for callback in callbacks:
        callback()
    hook = [b for p, b in channel.requests if p == "/hook"]
    tg = [b for p, b in channel.requests if p == "/bot123:abc/sendMessage"]
    assert len(hook) == 1 and len(tg) == 1
    text = "Заявка в «Тестовая кампания»: Novice (игрок novice) ждёт назначения стороны."
    assert hook[0]["text"] == text and hook[0]["kind"] == "join_requested"
    assert tg[0] == {"chat_id": "-100777", "text": text, "disable_web_page_preview": True}
    with django_capture_on_commit_callbacks(execute=True):  # asking again sends nothing new
        services.membership_request(campaign=campaign, character=character)
    assert len(channel.requests) == 2


@pytest.mark.django_db
def test_battle_end_and_an_approved_promotion_are_announced_by_name_in_english_too(
        channel, settings, running, game_master, django_capture_on_commit_callbacks):
    from battles import results
    from battles.services import battle_create

    settings.SHTAB = {**settings.SHTAB, "NOTIFY_LANGUAGE": "en", "TELEGRAM_BOT_TOKEN": ""}  # webhook only
    AwardRule.objects.filter(metric="battles_won").update(active=False)
    rule = AwardRule.objects.create(metric="kills", threshold=1, promotion=True)
    hans = running.cast["hans"][1]
    with django_capture_on_commit_callbacks(execute=True):
        battle = battle_create(campaign=running, name="Бой у моста", number=1)
        finish(battle, winner="defender", credits={hans.pk: {"kills": 3}})
        results.battle_conclude(battle_id=battle.id)
        results.battle_conclude(battle_id=battle.id)  # a re-run announces nothing twice
    assert channel.texts() == ["Battle «Бой у моста» (Тестовая кампания) is over: «Обороняющиеся» won."]
    proposal = Proposal.objects.get(character=hans, rule=rule)
    with django_capture_on_commit_callbacks(execute=True):
        services.proposal_decide(proposal=proposal, approve=True, by=game_master)
    assert channel.texts()[-1] == "Promotion approved: Hans is now Captain (Тестовая кампания)."
    assert all(p == "/hook" for p, _b in channel.requests)


@pytest.mark.django_db
def test_a_failing_channel_is_retried_and_then_delivered(channel, campaign, make_player,
                                                         django_capture_on_commit_callbacks):
    channel.statuses = [503, 502]  # the webhook is down twice, then takes it
    from django.conf import settings

    settings.SHTAB["TELEGRAM_BOT_TOKEN"] = ""
    _u, character = make_player("novice")
    with django_capture_on_commit_callbacks(execute=True):
        services.membership_request(campaign=campaign, character=character)
    assert [p for p, _b in channel.requests] == ["/hook"] * 3
    assert len(set(channel.texts())) == 1


@pytest.mark.django_db
def test_a_dead_channel_never_fails_the_write(channel, campaign, make_player, django_capture_on_commit_callbacks):
    channel.statuses = [500] * 10
    _u, character = make_player("novice")
    with django_capture_on_commit_callbacks(execute=True):
        m = services.membership_request(campaign=campaign, character=character)
    assert m.pk and len([p for p, _b in channel.requests if p == "/hook"]) == 4  # 1 + NOTIFY_RETRIES


@pytest.mark.django_db
def test_off_unless_configured(settings, campaign, make_player, django_capture_on_commit_callbacks):
    settings.SHTAB = {**settings.SHTAB, "NOTIFY_WEBHOOK_URL": "", "TELEGRAM_BOT_TOKEN": "", "TELEGRAM_CHAT_ID": ""}
    _u, character = make_player("novice")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.membership_request(campaign=campaign, character=character)
    assert callbacks == []
