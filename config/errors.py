"""One error family for the apps, and the DRF handler that renders it.

Services raise ``ApplicationError`` subclasses; the engine raises
``RuleViolation``/``PayloadError``. Every error response has the same shape::

    {"error": {"code": ..., "field": ... | null, "rule_id": ... | null,
               "message": <in the request's language>,
               "message_ru": ..., "message_en": ..., ...extra}}
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from battles.engine import PayloadError, RuleViolation


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


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, (RuleViolation, PayloadError)):
        exc = from_engine(exc)
    if isinstance(exc, ApplicationError):
        return Response({"error": exc.as_dict()}, status=exc.status_code)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        detail = response.data
        field = next(iter(detail), None) if isinstance(detail, dict) else None
        response.data = {
            "error": {
                "code": "invalid",
                "field": field,
                "rule_id": None,
                "message": str(exceptions.ValidationError.default_detail),
                "message_ru": f"Неверные данные{': ' + field if field else ''}",
                "message_en": f"Invalid input{': ' + field if field else ''}",
                "fields": detail,
            }
        }
    elif isinstance(response.data, dict) and "detail" in response.data:
        detail = response.data["detail"]
        response.data = {
            "error": {
                "code": getattr(detail, "code", "error"),
                "field": None,
                "rule_id": None,
                "message": str(detail),
            }
        }
    return response
