"""Logging in: the lock-out after repeated wrong passwords, and the API token view.

django-axes counts failed logins in the database (settings ``AXES_*``, from
``SHTAB["LOGIN_*"]``), and two limits apply, both within the cool-off:

* per *username and client address*: after ``LOGIN_FAILURE_LIMIT`` wrong
  passwords in a row, that username is refused from that address, even with
  the right password, for ``LOGIN_COOLOFF_MINUTES``. A stranger guessing a
  player's password never locks the player out of his own club.
* per *client address*: after ``LOGIN_ADDRESS_FAILURE_LIMIT`` wrong passwords
  from one address, whatever the names, every login from it is refused for the
  cool-off: one password sprayed over forty names is stopped (issue 27). The
  limit is higher than a name's, because a club shares one Wi-Fi address and
  one player's typos must not lock the others out.

A successful login clears that name's failures from that address only, never
the failures the address made under other names. Axes has one limit for all
its lockout parameters, so ``ShtabAxesHandler`` (``AXES_HANDLER``) counts the
two itself. Axes sees every ``authenticate()`` call: ``/accounts/login/`` and
``/admin/login/`` through its middleware, the token view here (DRF wraps the
request, so the view answers for itself). A superuser lifts a lock-out in the
admin ("Access attempts") or with ``manage.py axes_reset_username <name>`` /
``axes_reset_ip <address>``.
"""
from __future__ import annotations

import logging
import math
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username, get_cool_off, get_credentials, get_failure_limit
from axes.models import AccessAttempt
from django import forms
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db.models import Sum
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.views import APIView

from config.errors import ApplicationError, InvalidInput

log = logging.getLogger(__name__)


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


class ShtabAxesHandler(AxesDatabaseHandler):
    """Axes' database handler with the two limits of this module's docstring.

    Axes compares ``get_failures`` with its one limit (``AXES_FAILURE_LIMIT``, the
    name's): the address's count is scaled so that it reaches that limit exactly
    at ``LOGIN_ADDRESS_FAILURE_LIMIT``. Which limit refused is left on the request
    for ``lockout_response``. ``AXES_LOCKOUT_PARAMETERS`` stays per name and
    address: it is what a successful login resets."""

    def get_failures(self, request, credentials: dict | None = None) -> int:
        recent = AccessAttempt.objects.filter(ip_address=request.axes_ip_address,
                                              attempt_time__gte=get_cool_off_threshold(request))
        by_address = recent.aggregate(n=Sum("failures_since_start"))["n"] or 0
        by_name = recent.filter(username=get_client_username(request, credentials)).aggregate(
            n=Sum("failures_since_start"))["n"] or 0
        name_limit = get_failure_limit(request, credentials)
        address_limit = settings.SHTAB["LOGIN_ADDRESS_FAILURE_LIMIT"]
        request.shtab_address_locked = by_name < name_limit <= by_address * name_limit // address_limit
        return max(by_name, by_address * name_limit // address_limit)


def lockout_response(request: Any, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    """429 with Retry-After: the API's JSON error shape under /api/, a page elsewhere.

    Axes calls this (``AXES_LOCKOUT_CALLABLE``) for the two login forms; a failure
    during the lock-out restarts the cool-off, so the client waits the whole of it."""
    seconds = int(get_cool_off(request).total_seconds())
    minutes = max(1, math.ceil(seconds / 60))
    address = getattr(request, "shtab_address_locked", False)
    if request.path.startswith("/api/"):
        if address:
            error = LoginLockedOut(
                f"Слишком много неверных паролей с вашего адреса: вход с него закрыт на {minutes} мин. "
                "Попробуйте позже.",
                f"Too many wrong passwords from your address: logging in from it is blocked for {minutes} min. "
                "Try again later.",
                field="username", extra={"retry_after": seconds},
            )
        else:
            error = LoginLockedOut(
                f"Слишком много неверных паролей подряд: вход под этим именем с вашего адреса закрыт на {minutes} "
                "мин. Попробуйте позже.",
                f"Too many wrong passwords in a row: logging in as this user from your address is blocked for "
                f"{minutes} min. Try again later.",
                field="username", extra={"retry_after": seconds},
            )
        response: HttpResponse = JsonResponse({"error": error.as_dict()}, status=error.status_code)
    elif address:
        message = _("Too many wrong passwords from your address: logging in from it is blocked for %(minutes)s "
                    "min. Try again later.") % {"minutes": minutes}
        response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    else:
        message = _("Too many wrong passwords in a row: logging in as this user from your address is blocked "
                    "for %(minutes)s min. Try again later.") % {"minutes": minutes}
        response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


USERNAME_MAX_LENGTH = User._meta.get_field("username").max_length


class TokenIn(serializers.Serializer):
    username = serializers.CharField(max_length=USERNAME_MAX_LENGTH)
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)


class TokenOut(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


class TokenView(ObtainAuthToken):
    """``POST /api/auth/token/`` (username, password) → ``{"token": ...}``; 429 while
    that username, or this whole address, is locked out. Open to anyone: it
    authenticates nobody (a stale token or session cookie sent along is ignored)."""

    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]
    parser_classes = APIView.parser_classes  # JSON, as the whole API

    @extend_schema(request=TokenIn, responses={
        200: TokenOut,
        400: OpenApiResponse(description="Wrong username or password (code `invalid_credentials`), or a "
                                         "malformed body."),
        429: OpenApiResponse(description="Too many wrong passwords in a row for this username from this address, "
                                         "or from this address under any names: locked out for the cool-off, the "
                                         "right password included (code `locked_out`, `retry_after` seconds; "
                                         "header Retry-After)."),
    })
    def post(self, request, *args, **kwargs):
        username = request.data.get("username") if isinstance(request.data, dict) else None
        if username is not None and len(str(username)) > USERNAME_MAX_LENGTH:  # axes stores at most 255
            raise InvalidInput(f"username: не длиннее {USERNAME_MAX_LENGTH} символов.",
                               f"username: at most {USERNAME_MAX_LENGTH} characters.", field="username")
        TokenIn(data=request.data).is_valid(raise_exception=True)
        try:
            response = super().post(request, *args, **kwargs)
        except ValidationError:
            # Axes flags the (DRF) request it was handed when it refused or locked out.
            if getattr(request, "axes_locked_out", False):
                return lockout_response(request)
            raise InvalidInput("Неверное имя пользователя или пароль.", "Wrong username or password.",
                               code="invalid_credentials") from None
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


# Backends that accept a message and deliver it to nobody.
UNDELIVERING_BACKENDS = {"django.core.mail.backends.console.EmailBackend",
                         "django.core.mail.backends.dummy.EmailBackend",
                         "django.core.mail.backends.filebased.EmailBackend"}


def mail_configured() -> bool:
    """The server can deliver mail: not a backend that prints or drops it, and SMTP with a host."""
    backend = settings.EMAIL_BACKEND
    if backend in UNDELIVERING_BACKENDS:
        return False
    return bool(settings.EMAIL_HOST) or backend != "django.core.mail.backends.smtp.EmailBackend"


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset by e-mail when the server can send mail. Otherwise it would
    answer "we've e-mailed you" and send nothing: here the visitor reads that the
    club's server cannot send mail and whom to ask, with a 503, and the log gets an
    error the club's administrator sees."""

    def dispatch(self, request, *args, **kwargs):
        if not mail_configured():
            log.error("Password reset asked for, but the server cannot send mail: set EMAIL_HOST (and "
                      "EMAIL_HOST_USER, EMAIL_HOST_PASSWORD) or EMAIL_BACKEND (now %s).", settings.EMAIL_BACKEND)
            return render(request, "registration/password_reset_unavailable.html", status=503)
        return super().dispatch(request, *args, **kwargs)


class LogoutView(auth_views.LogoutView):
    """Django's logout, which also tells the browser to forget what it kept of this site (issue 30): the
    battle pages the offline table's service worker cached, the entries still waiting in IndexedDB and the
    worker itself (``Clear-Site-Data``). A phone passed to the next player, or a club's shared tablet, then
    opens no page of the player who left, offline or not; nor the game master's, who sees the hidden mines."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response
