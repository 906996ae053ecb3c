"""The append-only log, shared by the apps' logs (``battles.BattleEvent``,
``campaign.CampaignEvent``): the model base and queryset that refuse every ORM
path rewriting or removing a stored row, and the admin base that shows such a
log read-only. Both apps import it, so it lives under both of them (the app
layers in .importlinter). The database half is ``battles.db`` (triggers,
installed by the migrations).
"""
from __future__ import annotations

from typing import Any, NoReturn

from django.contrib import admin
from django.db import models


class EventLogIsAppendOnly(Exception):
    """Raised by every ORM path that would rewrite or remove a stored event."""

    def __init__(self, op: str) -> None:
        super().__init__(
            f"The battle log is append-only: {op} refused; append a correction event instead. "
            f"Журнал боя только дополняется: {op} запрещено, добавьте событие-исправление."
        )


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs: Any) -> NoReturn:
        raise EventLogIsAppendOnly("update")

    def delete(self) -> NoReturn:
        raise EventLogIsAppendOnly("delete")

    def bulk_update(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise EventLogIsAppendOnly("bulk_update")

    def update_or_create(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise EventLogIsAppendOnly("update_or_create")

    _raw_delete = delete  # type: ignore[assignment]


class AppendOnlyModel(models.Model):
    append_only = True  # picked up by battles.db.append_only_tables
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise EventLogIsAppendOnly("save")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise EventLogIsAppendOnly("delete")


class AppendOnlyAdmin(admin.ModelAdmin):
    """An append-only log in the admin: every field shown, nothing added,
    changed or deleted here (events enter only through the services)."""

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
