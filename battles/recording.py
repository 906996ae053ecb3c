"""The recording panel of the battle page: a form for each event type the
rules allow now to this person, built from the event types' JSON Schema and
filled from the battle's state. (Placeholder until the recording work lands.)"""
from __future__ import annotations

from typing import Any


def record_panel(*, battle: Any, role: Any, view: Any, names: dict[str, str], request: Any) -> dict[str, Any]:
    """Context for ``battles/_record_panel.html``."""
    return {"forms": []}
