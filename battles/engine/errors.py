"""Errors the engine raises. They know nothing of HTTP; the apps translate them.

Every message comes in Russian and English because the engine cannot use
Django's translation machinery (it is pure Python by design).
"""
from __future__ import annotations


class EngineError(Exception):
    """Base of everything the engine refuses."""

    code = "engine_error"

    def __init__(self, message_ru: str, message_en: str) -> None:
        super().__init__(message_en)
        self.message_ru = message_ru
        self.message_en = message_en

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message_ru": self.message_ru, "message_en": self.message_en}


class RuleViolation(EngineError):
    """An event the rules forbid. ``rule_id`` is a catalog ID (e.g. ``V-MED-1``)
    or, for the log's own structure, an ``S-`` code."""

    code = "rule_violation"

    def __init__(self, rule_id: str, message_ru: str, message_en: str) -> None:
        super().__init__(message_ru, message_en)
        self.rule_id = rule_id

    def __str__(self) -> str:
        return f"{self.rule_id}: {self.message_en}"

    def as_dict(self) -> dict[str, str]:
        return {"rule_id": self.rule_id, **super().as_dict()}


class PayloadError(EngineError):
    """A malformed event: unknown type, missing or mistyped field. ``field`` is a
    dotted path such as ``data.turn``."""

    code = "invalid_event"

    def __init__(self, field: str, message_ru: str, message_en: str) -> None:
        super().__init__(message_ru, message_en)
        self.field = field

    def __str__(self) -> str:
        return f"{self.field}: {self.message_en}"

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, **super().as_dict()}
