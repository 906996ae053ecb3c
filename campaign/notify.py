"""Notifications to the club's channel: a configured webhook (a JSON POST)
and, optionally, a Telegram bot (``sendMessage``) when a battle ends, an award
or a promotion is approved, or a join request arrives.

Off unless ``SHTAB["NOTIFY_WEBHOOK_URL"]`` or both ``TELEGRAM_BOT_TOKEN`` and
``TELEGRAM_CHAT_ID`` are set. Services call ``on_commit(kind, id)``: nothing
leaves before the write commits, and a rolled-back write sends nothing. The
Celery task ``notify_send`` builds the message from ids (names, never ids or
enum keys, in ``NOTIFY_LANGUAGE``) and queues one ``notify_post`` per channel,
each retried with back-off on a network error, a 429 or a 5xx. The tasks live
here, next to ``on_commit`` that queues them; ``tasks`` imports them so that
Celery finds them.

A webhook body carries the page's absolute URL (``SHTAB["SITE_URL"]`` + its
path) and a delivery id (a UUID, also the ``X-Shtab-Delivery`` header, the
same on every retry so that a receiver can drop repeats); ``X-Shtab-Event``
names the kind. With ``SHTAB["WEBHOOK_SECRET"]`` the exact body bytes are
signed as GitHub signs its webhooks: ``X-Shtab-Signature-256: sha256=<hex
HMAC-SHA256 of the body>`` (the README shows a receiver checking it). Each
webhook delivery is recorded (``WebhookDelivery``: attempts, HTTP status or
error, outcome) for the game master's admin; beat prunes old ones.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from .models import Award, CampaignEvent, Membership, NotificationKind, WebhookDelivery

log = logging.getLogger(__name__)

KINDS = tuple(NotificationKind.values)
SIGNATURE_HEADER = "X-Shtab-Signature-256"
DELIVERY_HEADER = "X-Shtab-Delivery"
EVENT_HEADER = "X-Shtab-Event"


class DeliveryError(Exception):
    """The channel did not take the message; ``retry`` says whether trying again may help."""

    def __init__(self, message: str, *, retry: bool, status: int | None = None, detail: str = "") -> None:
        super().__init__(message)
        self.retry = retry
        self.status = status  # the receiver's HTTP status, None when it was not reached
        self.detail = detail or message


@dataclass(frozen=True)
class Message:
    kind: str
    text: str
    campaign: str
    url: str = ""


def _conf() -> dict[str, Any]:
    return settings.SHTAB


def site_url(path: str) -> str:
    """The absolute address of one of our pages, as people reach the site."""
    return (_conf().get("SITE_URL") or "").rstrip("/") + path


def sign(body: bytes, secret: str) -> str:
    """The ``X-Shtab-Signature-256`` value: ``sha256=`` and the hex HMAC-SHA256 of the exact body bytes."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def channels() -> list[str]:
    conf = _conf()
    out = []
    if conf.get("NOTIFY_WEBHOOK_URL"):
        out.append("webhook")
    if conf.get("TELEGRAM_BOT_TOKEN") and conf.get("TELEGRAM_CHAT_ID"):
        out.append("telegram")
    return out


def on_commit(kind: str, object_id: int) -> None:
    """Schedule the notification of ``kind`` about ``object_id`` once the
    current transaction commits; nothing at all when notifications are off."""
    assert kind in KINDS, f"unknown notification {kind!r}"
    if not channels():
        return
    transaction.on_commit(lambda: notify_send.delay(kind, object_id))


def message(kind: str, object_id: int) -> Message | None:
    """The text of a notification, from the stored objects (None if gone)."""
    with translation.override(_conf().get("NOTIFY_LANGUAGE") or "ru"):
        ru = (translation.get_language() or "ru").startswith("ru")
        if kind == "join_requested":
            m = Membership.objects.select_related("campaign", "character", "player").filter(pk=object_id).first()
            if m is None:
                return None
            text = _("Join request to «%(campaign)s»: %(character)s (player %(player)s) waits for a side.") % {
                "campaign": m.campaign.name, "character": m.character.name, "player": m.player.username}
            return Message(kind, text, m.campaign.name, site_url(reverse("campaign-detail", args=[m.campaign_id])))
        e = (CampaignEvent.objects.select_related("campaign", "character__nationality", "battle")
             .filter(pk=object_id, type=kind).first())
        if e is None:
            return None
        campaign = e.campaign.name if e.campaign else ""
        if kind == "battle_result":
            url = reverse("battle-detail", args=[e.battle_id])
            winner = e.data.get("winner")
            if winner in ("attacker", "defender"):
                text = _("Battle «%(battle)s» (%(campaign)s) is over: «%(side)s» won.") % {
                    "battle": e.battle.name, "campaign": campaign, "side": e.campaign.side_name(winner)}
            else:
                text = _("Battle «%(battle)s» (%(campaign)s) is over: a draw.") % {
                    "battle": e.battle.name, "campaign": campaign}
        elif kind == "promotion":
            url = reverse("character-detail", args=[e.character_id])
            c = e.character
            text = _("Promotion approved: %(name)s is now %(rank)s (%(campaign)s).") % {
                "name": c.name, "rank": c.nationality.rank_name(e.data["to"], "ru" if ru else "en"),
                "campaign": campaign}
        else:
            url = reverse("character-detail", args=[e.character_id])
            award = Award.objects.filter(pk=e.data.get("award")).first()
            award_name = (award.name_ru if ru else award.name_en) if award else e.data.get("award_code", "")
            text = _("Award approved: %(name)s receives «%(award)s» (%(campaign)s).") % {
                "name": e.character.name, "award": award_name, "campaign": campaign}
        return Message(kind, text, campaign, site_url(url))


def post(channel: str, msg: dict[str, Any], timeout: float = 10.0) -> int:
    """Deliver one message to one channel and return the HTTP status; raise
    ``DeliveryError`` if not taken."""
    conf = _conf()
    headers = {"Content-Type": "application/json; charset=utf-8", "User-Agent": "shtab-notify"}
    if channel == "webhook":
        url, body = conf["NOTIFY_WEBHOOK_URL"], msg
        headers[EVENT_HEADER] = msg.get("kind", "")
        headers[DELIVERY_HEADER] = msg.get("delivery", "")
    elif channel == "telegram":
        url = f"{conf['TELEGRAM_API'].rstrip('/')}/bot{conf['TELEGRAM_BOT_TOKEN']}/sendMessage"
        body = {"chat_id": conf["TELEGRAM_CHAT_ID"], "text": msg["text"], "disable_web_page_preview": True}
    else:
        raise DeliveryError(f"unknown channel {channel!r}", retry=False)
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    if channel == "webhook" and conf.get("WEBHOOK_SECRET"):
        headers[SIGNATURE_HEADER] = sign(data, conf["WEBHOOK_SECRET"])  # over the very bytes sent
    request = urllib.request.Request(url, data=data, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - configured URL
            response.read()
            return response.status
    except urllib.error.HTTPError as exc:
        # 429 and 5xx pass; any other refusal (a wrong token, a wrong chat) will not.
        raise DeliveryError(f"{channel}: HTTP {exc.code}", retry=exc.code == 429 or exc.code >= 500,
                            status=exc.code, detail=f"HTTP {exc.code} {exc.reason}".strip()) from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        raise DeliveryError(f"{channel}: {exc}", retry=True, detail=str(reason) or type(reason).__name__) from None


def as_payload(msg: Message) -> dict[str, Any]:
    return asdict(msg)


def _target(url: str) -> str:
    """The webhook's address as recorded: no user, password, query string or fragment (they may hold a token)."""
    parts = urllib.parse.urlsplit(url)
    host = (parts.hostname or "") + (f":{parts.port}" if parts.port else "")
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))[:500]


def webhook_queued(payload: dict[str, Any]) -> dict[str, Any]:
    """Give a webhook message its delivery id and record it; the payload to send."""
    payload = {**payload, "delivery": str(uuid.uuid4())}
    WebhookDelivery.objects.create(delivery_id=payload["delivery"], kind=payload["kind"],
                                   target=_target(_conf()["NOTIFY_WEBHOOK_URL"]), subject=payload["text"])
    return payload


def _record(delivery: str | None, **fields: Any) -> None:
    if delivery:
        WebhookDelivery.objects.filter(delivery_id=delivery).update(**fields)


# Named as when they lived in campaign.tasks, so messages queued before the move still run.
@shared_task(name="campaign.tasks.notify", acks_late=True)
def notify_send(kind: str, object_id: int) -> int:
    """Build the notification (names, in the configured language) and queue
    its delivery to every configured channel."""
    msg = message(kind, object_id)
    if msg is None:
        return 0
    payload = as_payload(msg)
    chans = channels()
    for channel in chans:
        # One delivery id per message and webhook: its retries keep it (a receiver drops repeats by it).
        notify_post.delay(channel, webhook_queued(payload) if channel == "webhook" else payload)
    return len(chans)


@shared_task(name="campaign.tasks.notify_post", bind=True, acks_late=True, max_retries=None)
def notify_post(self, channel: str, payload: dict) -> bool:
    """Deliver to one channel; on a network error, a 429 or a 5xx, retried
    with exponential back-off (2, 4, 8… s) up to ``SHTAB["NOTIFY_RETRIES"]``
    times, then logged as an error: a dead channel never blocks or fails the
    write that caused the message. Embedded (eager) mode has no broker to
    schedule a retry on, so it tries again at once, in-process."""
    limit = settings.SHTAB.get("NOTIFY_RETRIES", 5)
    eager = bool(self.request.is_eager)
    if channel == "webhook" and not payload.get("delivery"):  # queued before deliveries had ids
        payload = webhook_queued(payload)
    delivery = payload.get("delivery") if channel == "webhook" else None
    error: Exception | None = None
    for _attempt in range(limit + 1 if eager else 1):
        try:
            status = post(channel, payload)
            _record(delivery, attempts=F("attempts") + 1, outcome=WebhookDelivery.Outcome.DELIVERED,
                    status_code=status, error="", finished_at=timezone.now())
            return True
        except DeliveryError as exc:
            error = exc
            _record(delivery, attempts=F("attempts") + 1, status_code=exc.status, error=exc.detail)
            if not exc.retry:
                break
            if not eager and self.request.retries < limit:
                raise self.retry(countdown=2 ** (self.request.retries + 1)) from exc
    _record(delivery, outcome=WebhookDelivery.Outcome.FAILED, finished_at=timezone.now())
    log.error("notification %s to %s not delivered: %s", payload.get("kind"), channel, error)
    return False


@shared_task(name="campaign.tasks.prune_webhook_deliveries", acks_late=True)
def prune_webhook_deliveries() -> int:
    """Forget webhook deliveries older than ``SHTAB["WEBHOOK_KEEP_DAYS"]`` (beat, hourly)."""
    cutoff = timezone.now() - timedelta(days=settings.SHTAB.get("WEBHOOK_KEEP_DAYS", 30))
    deleted, _by_model = WebhookDelivery.objects.filter(created_at__lt=cutoff).delete()
    return deleted
