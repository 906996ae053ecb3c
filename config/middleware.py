"""Security headers Django does not set itself.

The Content-Security-Policy comes from django-csp (settings ``CONTENT_SECURITY_POLICY``);
Referrer-Policy, X-Content-Type-Options, Cross-Origin-Opener-Policy and X-Frame-Options
from Django's own middleware. This adds Permissions-Policy: the pages use no camera,
microphone, location, payment or USB, so no page (nor anything injected in one) may ask.
"""
from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


def security_headers(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    policy = getattr(settings, "PERMISSIONS_POLICY", "")

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if policy:
            response.headers.setdefault("Permissions-Policy", policy)
        return response

    return middleware
