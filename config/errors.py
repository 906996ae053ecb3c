"""One error family for the apps, and the DRF handler that renders it.

Services raise ``ApplicationError`` subclasses; the engine raises
``RuleViolation``/``PayloadError``. Every error response has the same shape::

    {"error": {"code": ..., "field": ... | null, "rule_id": ... | null,
               "message": <in the request's language>,
               "message_ru": ..., "message_en": ..., ...extra}}
"""
from __future__ import annotations

import logging
import re
import string
from functools import lru_cache
from typing import Any

from django import db
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, override
from kombu.exceptions import OperationalError as BrokerDown
from rest_framework import exceptions, fields, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler

from battles.engine import PayloadError, RuleViolation

log = logging.getLogger(__name__)


class ApplicationError(Exception):
    status_code = status.HTTP_400_BAD_REQUEST
    code = "invalid"

    def __init__(
        self,
        message_ru: str,
        message_en: str,
        *,
        field: str | None = None,
        rule_id: str | None = None,
        code: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message_en)
        self.message_ru, self.message_en = message_ru, message_en
        self.field, self.rule_id = field, rule_id
        self.code = code or self.code
        self.extra = extra or {}

    def for_person(self, language: str | None = None) -> str:
        """The message as a page shows it, in the reader's language: the API's
        leading field key (``campaign: …``) dropped, since the page names the
        field itself (or the message stands alone), never twice."""
        ru = (language or get_language() or "ru").startswith("ru")
        text = self.message_ru if ru else self.message_en
        key = re.match(r"([a-z_][a-z0-9_.]*(?:\[\d+\])?[a-z0-9_.]*): ", text)
        if key:
            text = text[key.end():]
            text = text[:1].upper() + text[1:]
        return text

    def as_dict(self) -> dict[str, Any]:
        lang_ru = (get_language() or "ru").startswith("ru")
        return {
            "code": self.code,
            "field": self.field,
            "rule_id": self.rule_id,
            "message": self.message_ru if lang_ru else self.message_en,
            "message_ru": self.message_ru,
            "message_en": self.message_en,
            **self.extra,
        }


class InvalidInput(ApplicationError):
    status_code = status.HTTP_400_BAD_REQUEST
    code = "invalid"


class NotFound(ApplicationError):
    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"


class Forbidden(ApplicationError):
    status_code = status.HTTP_403_FORBIDDEN
    code = "forbidden"


class Conflict(ApplicationError):
    status_code = status.HTTP_409_CONFLICT
    code = "conflict"


class RuleRefused(ApplicationError):
    """422: the rules engine refused an event."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    code = "rule_violation"


def from_engine(exc: RuleViolation | PayloadError) -> ApplicationError:
    if isinstance(exc, RuleViolation):
        extra = {"index": exc.index} if hasattr(exc, "index") else {}
        return RuleRefused(exc.message_ru, exc.message_en, rule_id=exc.rule_id, extra=extra)
    return InvalidInput(exc.message_ru, exc.message_en, field=exc.field, code="invalid_event")


# Bilingual texts of DRF's own errors, by their code.
DRF_MESSAGES: dict[str, tuple[str, str]] = {
    "parse_error": ("Тело запроса — не разборчивый JSON.", "The request body is not well-formed JSON."),
    "not_authenticated": ("Нужно войти (токен или сессия).", "Authentication credentials were not provided."),
    "authentication_failed": ("Неверный токен или пароль.", "Incorrect authentication credentials."),
    "permission_denied": ("Недостаточно прав.", "You do not have permission to perform this action."),
    "not_found": ("Не найдено.", "Not found."),
    "method_not_allowed": ("Метод не поддерживается этим адресом.", "This method is not allowed here."),
    "not_acceptable": ("Такой формат ответа не поддерживается.", "The requested response format is not supported."),
    "unsupported_media_type": ("Такой формат тела не поддерживается (нужен JSON).",
                               "Unsupported media type of the body (send JSON)."),
    "throttled": ("Слишком много запросов: подождите.", "Too many requests: wait a little."),
    "too_large": ("Тело запроса слишком велико.", "The request body is too large."),
    "bad_request": ("Неверный запрос.", "Bad request."),
    "service_unavailable": ("Сервис временно недоступен (база данных или очередь): повторите позже.",
                            "The service is temporarily unavailable (database or queue): try again later."),
    "server_error": ("Внутренняя ошибка сервера.", "Internal server error."),
}
# Seconds a client should wait before retrying after a 503.
RETRY_AFTER = 5


def error_body(code: str, *, field: str | None = None, texts: tuple[str, str] | None = None,
               **extra: Any) -> dict[str, Any]:
    """The documented error shape for ``code`` (texts default to ``DRF_MESSAGES``)."""
    ru, en = texts or DRF_MESSAGES.get(code, DRF_MESSAGES["bad_request"])
    lang_ru = (get_language() or "ru").startswith("ru")
    return {"error": {"code": code, "field": field, "rule_id": None, "message": ru if lang_ru else en,
                      "message_ru": ru, "message_en": en, **extra}}


def outage(exc: BaseException) -> bool:
    """A database or broker that cannot be reached: the client may retry (503)."""
    if isinstance(exc, (db.OperationalError, db.InterfaceError)):
        return True
    return isinstance(exc, BrokerDown)


# DRF's messages raised with a plain gettext (its authentication), by their English msgid: their Russian is
# DRF's own catalog's. The messages of its fields and exceptions are found on their classes.
DRF_RAISED = (
    "Invalid token.", "Invalid token header. No credentials provided.",
    "Invalid token header. Token string should not contain spaces.",
    "Invalid token header. Token string should not contain invalid characters.", "User inactive or deleted.",
)


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def _drf_messages() -> list[Promise | str]:
    found: list[Promise | str] = list(DRF_RAISED)
    for cls in [fields.Field, *_subclasses(fields.Field)]:
        found += list(getattr(cls, "default_error_messages", {}).values())
    for cls in _subclasses(exceptions.APIException):
        found.append(cls.default_detail)
    return found


def _rendered(message: Promise | str) -> str:
    return str(message) if isinstance(message, Promise) else gettext(message)


@lru_cache(maxsize=4)
def _templates(language: str) -> list[tuple[re.Pattern[str], Promise | str]]:
    """Each DRF message as a pattern of its text in ``language``, its ``{placeholders}`` captured."""
    found = []
    with override(language):
        for message in _drf_messages():
            pattern, seen = "", set()
            for literal, name, _spec, _conv in string.Formatter().parse(_rendered(message)):
                pattern += re.escape(literal)
                if name:
                    pattern += f"(?P={name})" if name in seen else f"(?P<{name}>.*?)"
                    seen.add(name)
            found.append((re.compile(pattern, re.S), message))
    return found


def bilingual(text: str, fallback: tuple[str, str]) -> tuple[str, str]:
    """``text``, one of DRF's messages in the active language, in Russian and English. A text
    that is none of DRF's stays in its language and the other gets ``fallback``'s."""
    language = "ru" if (get_language() or "ru").startswith("ru") else "en"
    for pattern, message in _templates(language):
        found = pattern.fullmatch(text)
        if found:
            both = []
            for other in ("ru", "en"):
                with override(other):
                    both.append(_rendered(message).format(**found.groupdict()))
            return both[0], both[1]
    return (text, fallback[1]) if language == "ru" else (fallback[0], text)


def _first_error(detail: Any, path: str = "") -> tuple[str, str]:
    """The first leaf error of a ValidationError's detail, with where it is (``events[0].type``;
    the serializer's own errors, under NON_FIELD_ERRORS_KEY, name no field)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if value:
                inner = path if key == api_settings.NON_FIELD_ERRORS_KEY else (f"{path}.{key}" if path else str(key))
                return _first_error(value, inner)
    elif isinstance(detail, list):
        for i, value in enumerate(detail):
            if value:
                nested = isinstance(value, (dict, list))
                return _first_error(value, f"{path}[{i}]" if nested else path)
    return path, str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, (RuleViolation, PayloadError)):
        exc = from_engine(exc)
    if isinstance(exc, ApplicationError):
        return Response({"error": exc.as_dict()}, status=exc.status_code)
    if outage(exc):
        log.error("API answered 503: %s", exc, exc_info=exc)
        return Response(error_body("service_unavailable"), status=status.HTTP_503_SERVICE_UNAVAILABLE,
                        headers={"Retry-After": str(RETRY_AFTER)})
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body("too_large", field="body"), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, SuspiciousOperation):
        return Response(error_body("bad_request"), status=status.HTTP_400_BAD_REQUEST)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        detail = response.data
        field = next(iter(detail), None) if isinstance(detail, dict) else None
        if field == api_settings.NON_FIELD_ERRORS_KEY:
            field = None
        where, text = _first_error(detail)
        ru, en = bilingual(text, ("Неверные данные.", "Invalid input."))
        if where:
            ru, en = f"{where}: {ru}", f"{where}: {en}"
        response.data = error_body("invalid", field=field, texts=(ru, en), fields=detail)
    elif isinstance(response.data, dict) and "detail" in response.data:
        detail = response.data["detail"]
        code = str(getattr(detail, "code", None) or "error")
        texts = DRF_MESSAGES.get(code, DRF_MESSAGES["bad_request"])
        if code != "parse_error" and str(detail) != str(getattr(exc, "default_detail", "")):
            texts = bilingual(str(detail), texts)  # the view's own, more precise message
        response.data = error_body(code, field="body" if code == "parse_error" else None, texts=texts)
    return response
