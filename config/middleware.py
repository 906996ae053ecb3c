"""The API's one error shape for errors raised outside DRF, and the text check
of form and query-string input.

DRF's exception handler (``config.errors.api_exception_handler``) shapes what a
view raises. Some errors come from before or around the view: a body over
``DATA_UPLOAD_MAX_MEMORY_SIZE``, a Host header not in ``ALLOWED_HOSTS``, an
unknown /api/ path (404), a database that went away while the session or user
was loaded. Under /api/ this middleware answers those in the documented JSON
shape (a 503 with ``Retry-After`` for an outage); HTML pages keep Django's HTML
errors. It also refuses NUL in any query parameter or POST form field (of pages
and API alike; the API parses no form otherwise, a form body is its 415) with a
400 naming the field, before a query can choke on it, and
answers 404 for a path whose id (``<int:...>`` takes any number of digits) is
beyond what a database column holds (SQLite refuses such an integer outright).

It sits outside the middleware that sets the security headers (it must see what
they raise), so what it answers itself goes out past them: it gives such an
answer the same headers, from the response side of those same middleware
(``HEADER_SETTERS``, as ``MIDDLEWARE`` lists them); an answer it remakes as JSON
keeps every header of the answer it replaces but its content's.
"""
from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from csp import middleware as csp_middleware
from csp.constants import HEADER as CSP_HEADER
from csp.exceptions import CSPNonceError
from csp.utils import build_policy
from django.conf import settings
from django.core.exceptions import DisallowedHost, SuspiciousOperation
from django.core.signals import got_request_exception
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.html import escape
from django.utils.module_loading import import_string

from .errors import RETRY_AFTER, error_body, outage
from .inputs import MAX_INT, bad_text, text_error

log = logging.getLogger(__name__)

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
BY_STATUS = {400: "bad_request", 401: "not_authenticated", 403: "permission_denied", 404: "not_found",
             405: "method_not_allowed", 406: "not_acceptable", 413: "too_large", 415: "unsupported_media_type",
             429: "throttled"}


def _remember_exception(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """Django turns an uncaught exception into a 500 response before the outer
    middleware sees it: keep the exception so the answer can tell an outage."""
    if request is not None:
        request._shtab_exception = sys.exc_info()[1]  # type: ignore[attr-defined]


got_request_exception.connect(_remember_exception, dispatch_uid="shtab-remember-exception")


# The middleware that set security headers; their response side adds them (and asks nothing of the request:
# SecurityMiddleware's request side may redirect to HTTPS, which reads the Host this may be refusing).
HEADER_SETTERS = ("django.middleware.security.SecurityMiddleware", "config.middleware.CSPMiddleware",
                  "django.middleware.clickjacking.XFrameOptionsMiddleware")
# The headers an answer remade as JSON does not keep from the one it replaces.
CONTENT_HEADERS = frozenset({"content-type", "content-length"})


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def json_error(status: int, code: str, *, field: str | None = None,
               texts: tuple[str, str] | None = None) -> JsonResponse:
    response = JsonResponse(error_body(code, field=field, texts=texts), status=status,
                            json_dumps_params={"ensure_ascii": False})
    if status == 503:
        response["Retry-After"] = str(RETRY_AFTER)
    return response


class ApiErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        # innermost first, as a response passes them on its way out
        listed = [path for path in settings.MIDDLEWARE if path in HEADER_SETTERS]
        self.header_setters = [import_string(path)(get_response) for path in reversed(listed)]
        self.permissions_policy = "config.middleware.security_headers" in settings.MIDDLEWARE

    def __call__(self, request: HttpRequest) -> HttpResponse:
        api = is_api(request)
        if api:
            early = self._api_refusal(request)
            if early is not None:
                return self._secured(request, early)
        refused = self._bad_text(request, api)
        if refused is not None:
            return self._secured(request, refused)
        response = self.get_response(request)
        if api and response.status_code >= 400 and not response.get("Content-Type", "").startswith(
                "application/json"):
            return self._as_json(request, response)
        return response

    @staticmethod
    def process_view(request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]) -> None:
        """An id in the path no column holds names nothing: 404 before a query overflows on it."""
        if any(isinstance(v, int) and not -MAX_INT <= v <= MAX_INT for v in (*args, *kwargs.values())):
            raise Http404

    def _secured(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """``response`` with the security headers the middleware inside this one gives every answer."""
        for setter in self.header_setters:
            response = setter.process_response(request, response)
        if self.permissions_policy:
            add_permissions_policy(response)
        return response

    @staticmethod
    def _api_refusal(request: HttpRequest) -> HttpResponse | None:
        try:
            request.get_host()
        except DisallowedHost:
            return json_error(400, "bad_request", field="Host",
                              texts=("Host: сервер не обслуживает это имя.", "Host: not a name this server serves."))
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and length > limit and not request.content_type == "multipart/form-data":
            return json_error(413, "too_large", field="body")
        return None

    @staticmethod
    def _bad_text(request: HttpRequest, api: bool) -> HttpResponse | None:
        """NUL in a query parameter or form field (a form decodes bytes with
        replacement, so no lone surrogate reaches here)."""
        sources = [request.GET]
        if request.method == "POST" and request.content_type in FORM_TYPES:
            try:
                sources.append(request.POST)
            except (SuspiciousOperation, MultiPartParserError):
                if api:
                    return json_error(413, "too_large", field="body")
                return None  # the page's own handling answers in HTML
        for source in sources:
            for key, values in source.lists():
                if bad_text(key) or any(bad_text(v) for v in values):
                    field = key.replace("\x00", "\ufffd")
                    err = text_error(field)
                    if api:
                        return json_error(400, err.code, field=field, texts=(err.message_ru, err.message_en))
                    return HttpResponseBadRequest(f"<!doctype html><title>400</title><p>{escape(err.message_ru)}"
                                                  f"<br>{escape(err.message_en)}</p>")
        return None

    @staticmethod
    def _as_json(request: HttpRequest, response: HttpResponse) -> HttpResponse:
        exc = getattr(request, "_shtab_exception", None)
        if response.status_code >= 500:
            if exc is not None and outage(exc):
                return _keeping_headers(json_error(503, "service_unavailable"), response)
            return _keeping_headers(json_error(response.status_code, "server_error"), response)
        code = BY_STATUS.get(response.status_code, "bad_request")
        field = "body" if code == "too_large" else None
        return _keeping_headers(json_error(response.status_code, code, field=field), response)


def _keeping_headers(converted: HttpResponse, original: HttpResponse) -> HttpResponse:
    """``converted`` with every header of ``original`` (security headers, Allow, Vary...) but its content's."""
    for name, value in original.items():
        if name.lower() not in CONTENT_HEADERS and not converted.has_header(name):
            converted[name] = value
    return converted


# --- the Content-Security-Policy, built once ------------------------------------------------------
# django-csp builds the header from the settings for every answer (and a report-only one we do not
# configure): 0.1 ms an answer, the most of any middleware on a token append (bench/HISTORY.md, "Game night,
# fifteenth session"). The policy changes only with the settings and the answer's nonce, so this builds it
# once for a settings object, with a mark where a nonce goes. An answer with a policy of its own (django-csp's
# decorators), a report-only policy, excluded prefixes or Django's debug pages go django-csp's own way.
_OWN_POLICY = ("_csp_exempt", "_csp_config", "_csp_update", "_csp_replace", "_csp_exempt_ro", "_csp_config_ro",
               "_csp_update_ro", "_csp_replace_ro")
_NONCE_MARK = "\x00"


def _nonce_written() -> str:
    raise CSPNonceError("The nonce is not available after the Content-Security-Policy header has been written.")


class CSPMiddleware(csp_middleware.CSPMiddleware):
    built: tuple[Any, str, str] | None = None  # (the settings' policy, its header without a nonce, with the mark)

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        config = getattr(settings, "CONTENT_SECURITY_POLICY", None)
        if (not config or config.get("EXCLUDE_URL_PREFIXES")
                or getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
                or any(hasattr(response, name) for name in _OWN_POLICY)
                or (settings.DEBUG and response.status_code in (404, 500))):
            return super().process_response(request, response)
        built = self.built
        if built is None or built[0] is not config:
            built = self.built = (config, build_policy(), build_policy(nonce=_NONCE_MARK))
        nonce = getattr(request, "csp_nonce", None)  # django-csp's lazy nonce (none on an answer made before it)
        used = bool(nonce)  # true once a page asked for it
        if CSP_HEADER not in response:
            response[CSP_HEADER] = built[2].replace(_NONCE_MARK, str(nonce)) if used else built[1]
        if not used:  # as django-csp: a nonce asked for after this would not be in the header
            request.csp_nonce = csp_middleware.CheckableLazyObject(_nonce_written)
        return response


# --- security headers Django does not set itself -------------------------------------------------
# The Content-Security-Policy comes from django-csp (settings ``CONTENT_SECURITY_POLICY``);
# Referrer-Policy, X-Content-Type-Options, Cross-Origin-Opener-Policy and X-Frame-Options from
# Django's own middleware. This adds Permissions-Policy: the pages use no camera, microphone,
# location, payment or USB, so no page (nor anything injected in one) may ask.
def add_permissions_policy(response: HttpResponse) -> None:
    policy = getattr(settings, "PERMISSIONS_POLICY", "")
    if policy:
        response.headers.setdefault("Permissions-Policy", policy)


def security_headers(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        add_permissions_policy(response)
        return response

    return middleware
