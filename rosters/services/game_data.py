"""Writes to game data (from the admin): each one bumps ``GameDataVersion``, so
rosters priced earlier can tell that a re-price would change their total."""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from rosters.models import GameDataVersion


def game_data_version_bump(*, note: str = "") -> GameDataVersion:
    """Called after every change of game data, so rosters priced earlier can
    tell that a re-price would change their total."""
    return GameDataVersion.objects.create(note=note[:200])


@transaction.atomic
def game_data_row_save(*, row: Any, changed: list[str]) -> Any:
    """Save a row of game data (from the admin). A placeholder row the master
    has edited stops being a placeholder unless he ticked the marker himself."""
    if changed and hasattr(row, "is_placeholder") and "is_placeholder" not in changed:
        row.is_placeholder = False
    if hasattr(row, "updated_at"):
        row.updated_at = timezone.now()
    row.save()
    game_data_version_bump(note=f"{row._meta.verbose_name}: {row} ({', '.join(changed) or 'saved'})")
    return row


@transaction.atomic
def game_data_row_delete(*, row: Any) -> None:
    label = f"{row._meta.verbose_name}: {row} (deleted)"
    row.delete()
    game_data_version_bump(note=label)
