"""The battle table without a network (issue 30, docs/offline.md): the pieces the server adds so the
battle page can be installed and keep recording offline. The page's script
(``battles/static/battles/table.js``) keeps waiting entries in IndexedDB and sends them through the
record endpoint with their keys; the service worker (``battles/static/battles/sw.js``, served here at
``/battles/sw.js`` so its scope covers ``/battles/``) caches the page and its static files.

* ``service_worker``: the worker's static file, from a URL whose directory is the scope it needs;
* ``manifest``: the web app manifest of one battle's page (installable, opens that battle);
* ``stored_seq``: the seq of an entry a player already stored under a key, for the retry whose
  form the battle has moved past (``views.battle_record``)."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from battles.models import Battle, BattleEvent
from config import rows

WORKER = Path(__file__).resolve().parent.parent / "static" / "battles" / "sw.js"


@cache
def _worker_text() -> bytes:
    return WORKER.read_bytes()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The static worker file at ``/battles/sw.js``: a worker's scope is at most its own URL's
    directory, so served from here it may control every battle page (``/battles/<id>/``) and no
    other page. ``no-cache``: the browser asks again on each check, so a new worker is seen."""
    response = HttpResponse(_worker_text(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest, battle_id: int) -> HttpResponse:
    """The web app manifest of a battle's page: installed on a phone's home screen it opens this
    battle (from the worker's cache when there is no network). Names only what the page shows
    to anyone (the battle's and the campaign's names)."""
    battle = rows.with_parent_or_404(Battle, battle_id, "campaign")
    page = reverse("battle-detail", args=[battle.id])
    data: dict[str, Any] = {
        "name": f"{battle.name} · {battle.campaign.name}",
        "short_name": battle.name[:24],
        "description": _("The battle table: record entries even when the network drops."),
        "id": page,
        "start_url": page,
        "scope": reverse("battle-service-worker").rsplit("/", 1)[0] + "/",
        "display": "standalone",
        "background_color": "#f6f4ef",
        "theme_color": "#3b4a2f",
        "icons": [
            {"src": static("battles/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("battles/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("battles/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return HttpResponse(json.dumps(data, ensure_ascii=False), content_type="application/manifest+json")


def stored_seq(*, battle_id: int, key: str, recorded_by: Any) -> int | None:
    """The last seq stored under ``key`` (a page form's ``<token>:<form>``; «Ход» of a player
    sharing his side stores ``<key>:<player>`` too) by ``recorded_by``, or ``None``. A key is a
    retry only for whoever stored it (``battles.log.checks.stored_retry``): another recorder's key
    answers ``None`` here and tells nothing."""
    user_id = getattr(recorded_by, "pk", None)
    if user_id is None:
        return None
    seqs = [seq for k, seq in BattleEvent.objects.filter(battle_id=battle_id, recorded_by_id=user_id,
                                                         key__startswith=key).values_list("key", "seq")
            if k == key or k.startswith(key + ":")]
    return max(seqs) if seqs else None
