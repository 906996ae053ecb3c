"""The lean append in front of Django: ``POST /api/battles/{id}/events/`` with
``Authorization: Token …`` and a JSON body, answered at the WSGI level
without Django's middleware chain and URL resolver (``config.wsgi`` wraps its
application in ``LeanAppendFront``).

The answer is ``battles.api_fast.lean_append``'s, the same view the URL map
runs inside Django; what the middleware gives such a request is kept, in the
chain's order:

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
a query string, a chunked body, a Host or size Django would refuse, an HTTPS
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
                                or settings.STATIC_URL.lstrip("/").startswith("api")))
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

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        battle_id = self.recognises(environ)
        if battle_id is None:
            return self.app(environ, start_response)
        set_script_prefix(get_script_name(environ))
        signals.request_started.send(sender=self.__class__, environ=environ)
        response = self.answer(environ, battle_id)
        if response is None:  # Django answers; its handler sends its own request_started and finished
            return self.app(environ, start_response)
        start_response(f"{response.status_code} {response.reason_phrase}",
                       [*response.items(), *(("Set-Cookie", c.output(header="")) for c in response.cookies.values())])
        return response  # the server's close() sends request_finished

    def answer(self, environ: dict[str, Any], battle_id: int) -> HttpResponse | None:
        """The lean answer with the middleware's headers, or ``None`` for
        Django (with ``wsgi.input`` readable again)."""
        from . import api_fast

        api_error, security, locale, common, xframe, gzip, csp, permissions, unusual = self.hooks()
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
