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
"""
from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from .models import Award, CampaignEvent, Membership

log = logging.getLogger(__name__)

KINDS = ("battle_result", "award_granted", "promotion", "join_requested")


class DeliveryError(Exception):
    """The channel did not take the message; ``retry`` says whether trying again may help."""

    def __init__(self, message: str, *, retry: bool) -> None:
        super().__init__(message)
        self.retry = retry


@dataclass(frozen=True)
class Message:
    kind: str
    text: str
    campaign: str
    url: str = ""


def _conf() -> dict[str, Any]:
    return settings.SHTAB


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
            return Message(kind, text, m.campaign.name)
        e = (CampaignEvent.objects.select_related("campaign", "character__nationality", "battle")
             .filter(pk=object_id, type=kind).first())
        if e is None:
            return None
        campaign = e.campaign.name if e.campaign else ""
        if kind == "battle_result":
            winner = e.data.get("winner")
            if winner in ("attacker", "defender"):
                text = _("Battle «%(battle)s» (%(campaign)s) is over: «%(side)s» won.") % {
                    "battle": e.battle.name, "campaign": campaign, "side": e.campaign.side_name(winner)}
            else:
                text = _("Battle «%(battle)s» (%(campaign)s) is over: a draw.") % {
                    "battle": e.battle.name, "campaign": campaign}
        elif kind == "promotion":
            c = e.character
            text = _("Promotion approved: %(name)s is now %(rank)s (%(campaign)s).") % {
                "name": c.name, "rank": c.nationality.rank_name(e.data["to"], "ru" if ru else "en"),
                "campaign": campaign}
        else:
            award = Award.objects.filter(pk=e.data.get("award")).first()
            award_name = (award.name_ru if ru else award.name_en) if award else e.data.get("award_code", "")
            text = _("Award approved: %(name)s receives «%(award)s» (%(campaign)s).") % {
                "name": e.character.name, "award": award_name, "campaign": campaign}
        return Message(kind, text, campaign)


def post(channel: str, msg: dict[str, Any], timeout: float = 10.0) -> None:
    """Deliver one message to one channel; raise ``DeliveryError`` if not taken."""
    conf = _conf()
    if channel == "webhook":
        url, body = conf["NOTIFY_WEBHOOK_URL"], msg
    elif channel == "telegram":
        url = f"{conf['TELEGRAM_API'].rstrip('/')}/bot{conf['TELEGRAM_BOT_TOKEN']}/sendMessage"
        body = {"chat_id": conf["TELEGRAM_CHAT_ID"], "text": msg["text"], "disable_web_page_preview": True}
    else:
        raise DeliveryError(f"unknown channel {channel!r}", retry=False)
    request = urllib.request.Request(url, data=json.dumps(body, ensure_ascii=False).encode("utf-8"), method="POST",
                                     headers={"Content-Type": "application/json; charset=utf-8",
                                              "User-Agent": "shtab-notify"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - configured URL
            response.read()
    except urllib.error.HTTPError as exc:
        # 429 and 5xx pass; any other refusal (a wrong token, a wrong chat) will not.
        raise DeliveryError(f"{channel}: HTTP {exc.code}", retry=exc.code == 429 or exc.code >= 500) from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise DeliveryError(f"{channel}: {exc}", retry=True) from None


def as_payload(msg: Message) -> dict[str, Any]:
    return asdict(msg)


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
        notify_post.delay(channel, payload)
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
    error: Exception | None = None
    for _attempt in range(limit + 1 if eager else 1):
        try:
            post(channel, payload)
            return True
        except DeliveryError as exc:
            error = exc
            if not exc.retry:
                break
            if not eager and self.request.retries < limit:
                raise self.retry(countdown=2 ** (self.request.retries + 1)) from exc
    log.error("notification %s to %s not delivered: %s", payload.get("kind"), channel, error)
    return False
