"""The lean append in front of Django: ``POST /api/battles/{id}/events/`` with
``Authorization: Token …`` and a JSON body, answered at the WSGI level
without Django's middleware chain and URL resolver (``config.wsgi`` wraps its
application in ``LeanAppendFront``). The battle page's poll that finds
nothing moved (``GET /battles/{id}/live/?since=<n>&state=<m>``, every second
from every open page) is answered here too, by ``battles.views.battle_live_quiet``
as inside Django (one query, no render); a battle that moved goes to Django,
which renders the regions for the reader.

The append's answer is ``battles.api_fast.lean_append``'s, the same view the
URL map runs inside Django; what the middleware gives such a request is kept,
in the chain's order (for both answers):

* request side: the Host check (``ALLOWED_HOSTS``) and the body size limit
  (``DATA_UPLOAD_MAX_MEMORY_SIZE``) of ``ApiErrorMiddleware``, the HTTPS
  redirect of ``SecurityMiddleware``, the language of ``LocaleMiddleware``
  (error messages follow ``Accept-Language`` and the language cookie);
* response side: ``X-Frame-Options``, ``Content-Language`` and ``Vary``,
  ``Content-Length``, Permissions-Policy, the Content-Security-Policy (the
  middleware's own value, built once: the lean answer has no nonce),
  ``SecurityMiddleware``'s headers (nosniff, Referrer-Policy,
  Cross-Origin-Opener-Policy, HSTS on HTTPS) and gzip for a client that asks;
* an exception answers as Django's handler and ``ApiErrorMiddleware`` would
  (logged, ``got_request_exception`` sent, a 503 with ``Retry-After`` for a
  database outage, else the JSON 500);
* the database connection: ``request_started`` is sent before and
  ``request_finished`` when the server closes the response, as Django's
  handler does, so ``close_old_connections`` runs the same way.

Everything else goes to Django untouched: another path or method, no token,
a query string (for the poll: anything but ``since`` and ``state`` in digits, in that order), a body or a chunked
one (for the poll: any body), a Host or size Django would refuse, an HTTPS
redirect, denied user agents or ``PREPEND_WWW`` configured, a ``MIDDLEWARE``
other than the ones mirrored here (``MIRRORED_CHAINS``), and whatever
``lean_append`` hands back (unknown token or battle, a body that does not
parse), with the body it read put back for Django to read again.
"""
from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core import signals
from django.core.exceptions import DisallowedHost
from django.core.handlers.exception import response_for_exception
from django.core.handlers.wsgi import WSGIRequest, get_script_name
from django.http import HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.gzip import GZipMiddleware
from django.middleware.locale import LocaleMiddleware
from django.middleware.security import SecurityMiddleware
from django.test.signals import setting_changed
from django.urls import set_script_prefix
from django.utils.log import log_response

_PATH = re.compile(r"/api/battles/([0-9]+)/events/\Z")
_LIVE = re.compile(r"/battles/([0-9]+)/live/\Z")
_LIVE_QUERY = re.compile(r"since=([0-9]{1,18})&state=([0-9]{1,18})\Z")

# The chain this front stands in for (config.settings.base's). Any other ``MIDDLEWARE`` (a middleware added,
# removed or moved) and every request goes to Django until the front is reviewed against it
# (``test_the_front_mirrors_the_chain``). Production's chain is the same with WhiteNoise after
# SecurityMiddleware, which serves files under STATIC_URL only and adds nothing to other answers.
MIRRORED = (
    "django.middleware.gzip.GZipMiddleware",
    "config.middleware.ApiErrorMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.security_headers",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
)
_WHITENOISE = "whitenoise.middleware.WhiteNoiseMiddleware"
MIRRORED_CHAINS = (MIRRORED, (*MIRRORED[:3], _WHITENOISE, *MIRRORED[3:]))


def _unused(request: Any) -> HttpResponse:  # the middleware objects below are used for their hooks only
    raise AssertionError("not a chain")


class LeanAppendFront:
    """WSGI application: the lean append for the requests it recognises, the
    wrapped Django application for everything else."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self._hooks: tuple | None = None
        self._csp: dict[int, list[tuple[str, str]]] = {}
        setting_changed.connect(self._settings_changed, weak=False, dispatch_uid=f"shtab-lean-front-{id(self)}")

    def _settings_changed(self, **_: Any) -> None:
        self._hooks = None
        self._csp = {}

    def hooks(self) -> tuple:
        if self._hooks is None:
            from csp.middleware import CSPMiddleware

            from config.middleware import ApiErrorMiddleware

            self._hooks = (ApiErrorMiddleware(_unused), SecurityMiddleware(_unused), LocaleMiddleware(_unused),
                           CommonMiddleware(_unused), XFrameOptionsMiddleware(_unused), GZipMiddleware(_unused),
                           CSPMiddleware(_unused), getattr(settings, "PERMISSIONS_POLICY", ""),
                           bool(settings.DISALLOWED_USER_AGENTS or settings.PREPEND_WWW
                                or tuple(settings.MIDDLEWARE) not in MIRRORED_CHAINS
                                or settings.STATIC_URL.lstrip("/").startswith(("api", "battles"))))
        return self._hooks

    @staticmethod
    def recognises(environ: dict[str, Any]) -> int | None:
        """The battle id of a request the lean path may take, else ``None``."""
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("QUERY_STRING"):
            return None
        m = _PATH.match(environ.get("PATH_INFO", ""))
        if m is None or not environ.get("HTTP_AUTHORIZATION", "")[:6].lower() == "token ":
            return None
        if not environ.get("CONTENT_LENGTH") or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        return int(m.group(1))

    @staticmethod
    def recognises_live(environ: dict[str, Any]) -> tuple[int, str, str] | None:
        """(battle id, since, state) of a poll the front may answer, else ``None``."""
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("CONTENT_LENGTH") not in (None, "", "0"):
            return None
        m = _LIVE.match(environ.get("PATH_INFO", ""))
        q = _LIVE_QUERY.match(environ.get("QUERY_STRING", ""))
        if m is None or q is None or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        return int(m.group(1)), q.group(1), q.group(2)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        battle_id = self.recognises(environ)
        live = self.recognises_live(environ) if battle_id is None else None
        if battle_id is None and live is None:
            return self.app(environ, start_response)
        set_script_prefix(get_script_name(environ))
        signals.request_started.send(sender=self.__class__, environ=environ)
        response = self.answer(environ, battle_id) if live is None else self.answer_live(environ, *live)
        if response is None:  # Django answers; its handler sends its own request_started and finished
            return self.app(environ, start_response)
        start_response(f"{response.status_code} {response.reason_phrase}",
                       [*response.items(), *(("Set-Cookie", c.output(header="")) for c in response.cookies.values())])
        return response  # the server's close() sends request_finished

    def answer(self, environ: dict[str, Any], battle_id: int) -> HttpResponse | None:
        """The lean answer with the middleware's headers, or ``None`` for
        Django (with ``wsgi.input`` readable again)."""
        from . import api_fast

        api_error, security, locale, *_, unusual = self.hooks()
        request = WSGIRequest(environ)
        if unusual or api_error._api_refusal(request) is not None or security.process_request(request) is not None:
            return None
        locale.process_request(request)
        try:
            response = api_fast.lean_append(request, battle_id)
        except Exception as exc:  # Django's handler's answer, shaped by ApiErrorMiddleware
            response = response_for_exception(request, exc)
            if response.status_code >= 400 and not response.get("Content-Type", "").startswith("application/json"):
                response = api_error._as_json(request, response)
        if response is None:
            if hasattr(request, "_body"):
                environ["wsgi.input"] = io.BytesIO(request._body)
            return None
        return self._dressed(request, response)

    def answer_live(self, environ: dict[str, Any], battle_id: int, since: str, state: str) -> HttpResponse | None:
        """The poll's answer when nothing moved, with the middleware's headers,
        or ``None`` for Django (the battle moved: Django renders; or Django
        would answer otherwise: a Host it refuses, an HTTPS redirect)."""
        from .views import battle_live_quiet

        _, security, locale, *_, unusual = self.hooks()
        request = WSGIRequest(environ)
        if unusual or security.process_request(request) is not None:
            return None
        try:
            request.get_host()
        except DisallowedHost:
            return None
        locale.process_request(request)
        try:
            response = battle_live_quiet(battle_id=battle_id, since=since, state=state)
        except Exception as exc:  # Django's handler's answer
            response = response_for_exception(request, exc)
        return None if response is None else self._dressed(request, response)

    def _dressed(self, request: WSGIRequest, response: HttpResponse) -> HttpResponse:
        """The response side of the chain, in its order."""
        _, security, locale, common, xframe, gzip, csp, permissions, _ = self.hooks()
        response = xframe.process_response(request, response)
        response = locale.process_response(request, response)
        response = common.process_response(request, response)
        if permissions:
            response.headers.setdefault("Permissions-Policy", permissions)
        self._set_csp(csp, request, response)
        response = security.process_response(request, response)
        response = gzip.process_response(request, response)
        if response.status_code >= 400:  # as Django's handler logs them (once: log_response marks it)
            log_response("%s: %s", response.reason_phrase, request.path, response=response, request=request)
        return response

    def _set_csp(self, csp: Any, request: WSGIRequest, response: HttpResponse) -> None:
        """The middleware's headers, built by it for the first answer and kept:
        a lean answer has no nonce and no per-view policy, so they never change."""
        kept = self._csp.get(response.status_code)
        if kept is None:  # (by status: django-csp leaves DEBUG's 404 and 500 pages alone)
            probe = HttpResponse(status=response.status_code)
            csp.process_response(request, probe)
            kept = self._csp[response.status_code] = [
                (k, v) for k, v in probe.items() if k.lower().startswith("content-security-policy")]
        for name, value in kept:
            response.headers.setdefault(name, value)
