"""Django's middleware for pages, passed by a token API request.

A request to the API that signs in with its token (``Authorization: Token …``, DRF's
``TokenAuthentication``) has no session, no user to read from one, no flash message and no
trailing-slash redirect to make: the four middleware below let it through untouched, and do for every
other request exactly what Django's do. That is about a tenth of the server's CPU a single-event append
(bench/HISTORY.md, "Issue 26, eighteenth session"). Each is Django's own class (``settings.MIDDLEWARE``
names them here; Django's admin checks accept a subclass), with ``__call__`` deciding first.

What every answer needs still runs for a token request: the request id, the metrics, the API's error
shape, the security headers and CSP, the language (DRF's own messages follow it), gzip, conditional GET,
CSRF (DRF exempts its views; Django's deploy check wants its own class listed) and django-axes (so does
its check).
"""
from __future__ import annotations

from typing import Any

from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.http import HttpRequest
from django.middleware import common


def token_api(request: HttpRequest) -> bool:
    """Whether ``request`` is an API request that authenticates by its token."""
    return request.path_info.startswith("/api/") and request.META.get("HTTP_AUTHORIZATION", "").startswith("Token ")


def _pages_only(middleware: type) -> type:
    class PagesOnly(middleware):  # type: ignore[misc, valid-type]
        def __call__(self, request: HttpRequest) -> Any:
            if token_api(request):
                return self.get_response(request)
            return super().__call__(request)

    PagesOnly.__name__ = PagesOnly.__qualname__ = middleware.__name__
    PagesOnly.__doc__ = f"Django's ``{middleware.__name__}``, passed by a token API request."
    return PagesOnly


SessionMiddleware = _pages_only(sessions.SessionMiddleware)
CommonMiddleware = _pages_only(common.CommonMiddleware)
AuthenticationMiddleware = _pages_only(auth.AuthenticationMiddleware)
MessageMiddleware = _pages_only(messages.MessageMiddleware)
