"""Logging in: the lock-out after repeated wrong passwords, and the API token view.

django-axes counts failed logins in the database per *username and client
address* (settings ``AXES_*``, from ``SHTAB["LOGIN_*"]``): after
``LOGIN_FAILURE_LIMIT`` wrong passwords in a row, that username is refused from
that address, even with the right password, for ``LOGIN_COOLOFF_MINUTES``; a
successful login resets the count. Keying on both means a stranger guessing a
player's password never locks the player out of his own club, and one
address guessing many names is refused name by name. Axes sees every
``authenticate()`` call: ``/accounts/login/`` and ``/admin/login/`` through its
middleware, the token view here (DRF wraps the request, so the view answers
for itself). A superuser lifts a lock-out in the admin ("Access attempts") or
with ``manage.py axes_reset_username <name>``.
"""
from __future__ import annotations

import math
from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_cool_off, get_credentials
from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError

from config.errors import ApplicationError


class LoginLockedOut(ApplicationError):
    status_code = 429
    code = "locked_out"


def client_ip(request: Any) -> str | None:
    """The client address the lock-out keys on. Behind ``SHTAB["TRUSTED_PROXIES"]``
    reverse proxies, the address the nearest trusted proxy saw (counted from the
    right of X-Forwarded-For: the client can forge the left of that header, never
    what our own proxies appended); otherwise REMOTE_ADDR."""
    hops = settings.SHTAB["TRUSTED_PROXIES"]
    if hops:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return request.META.get("REMOTE_ADDR")


def lockout_response(request: Any, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    """429 with Retry-After: the API's JSON error shape under /api/, a page elsewhere.

    Axes calls this (``AXES_LOCKOUT_CALLABLE``) for the two login forms; a failure
    during the lock-out restarts the cool-off, so the client waits the whole of it."""
    seconds = int(get_cool_off(request).total_seconds())
    minutes = max(1, math.ceil(seconds / 60))
    if request.path.startswith("/api/"):
        error = LoginLockedOut(
            f"Слишком много неверных паролей подряд: вход под этим именем с вашего адреса закрыт на {minutes} мин. "
            "Попробуйте позже.",
            f"Too many wrong passwords in a row: logging in as this user from your address is blocked for "
            f"{minutes} min. Try again later.",
            field="username", extra={"retry_after": seconds},
        )
        response: HttpResponse = JsonResponse({"error": error.as_dict()}, status=error.status_code)
    else:
        message = _("Too many wrong passwords in a row: logging in as this user from your address is blocked "
                    "for %(minutes)s min. Try again later.") % {"minutes": minutes}
        response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


class TokenView(ObtainAuthToken):
    """``POST /api/auth/token/`` (username, password) → ``{"token": ...}``; 429 while
    that username is locked out from this address."""

    @extend_schema(responses={
        200: AuthTokenSerializer,
        400: OpenApiResponse(description="Wrong username or password (the error shape)."),
        429: OpenApiResponse(description="Too many wrong passwords in a row for this username from this address: "
                                         "locked out for the cool-off, the right password included (the error "
                                         "shape, code `locked_out`, `retry_after` seconds; header Retry-After)."),
    })
    def post(self, request, *args, **kwargs):
        try:
            response = super().post(request, *args, **kwargs)
        except ValidationError:
            # Axes flags the (DRF) request it was handed when it refused or locked out.
            if getattr(request, "axes_locked_out", False):
                return lockout_response(request)
            raise
        if settings.AXES_ENABLED and settings.AXES_RESET_ON_SUCCESS:
            # No session login here, so no user_logged_in signal: reset the count ourselves.
            AxesProxyHandler.update_request(request)
            AxesProxyHandler.get_implementation().reset_user_attempts(
                request, get_credentials(request.data.get("username")))
        return response



class SignupForm(UserCreationForm):
    """Sign-up with a required, valid e-mail address (password reset needs one),
    unique among accounts (case-insensitive)."""

    email = forms.EmailField(label=gettext_lazy("E-mail"), required=True, max_length=254,
                             help_text=gettext_lazy("For resetting a forgotten password."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"].strip()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(gettext_lazy("An account with this e-mail already exists."))
        return email
