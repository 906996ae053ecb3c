"""Model instances with the row a foreign key of theirs names, read by one plain query.

The ORM builds and compiles a query's SQL anew on every call: for
``Battle.objects.select_related("campaign").filter(pk=...).first()`` that was
0.6–0.7 ms of the server's CPU, against 0.1 for the same query written once,
and every battle page, live answer and recording form read its battle so
(bench/HISTORY.md, "Game night, twelfth session"). Here the columns are listed
once a process from the models' own metadata, and each value goes through the
converters the ORM itself applies (the database backend's, then the field's:
SQLite's dates, a ``JSONField``'s text), so the instances are the ones the ORM
would give: every concrete field loaded, the related instance cached on the
foreign key (no query when it is read; ``None`` where the key is empty).
"""
from __future__ import annotations

import functools
from typing import Any

from django.db import connection, models
from django.http import Http404


@functools.cache  # (built once a process: the models do not change while it runs)
def _select(model: type[models.Model], via: str | None) -> tuple[str, tuple[Any, ...], tuple[Any, ...]]:
    """``SELECT <the model's columns>[, <the parent's>] FROM <model> a [LEFT JOIN <parent> b ON …]``."""
    q = connection.ops.quote_name
    own = tuple(model._meta.concrete_fields)
    columns = ", ".join(f"a.{q(f.column)}" for f in own)
    if via is None:
        return f"SELECT {columns} FROM {q(model._meta.db_table)} a", own, ()
    key = model._meta.get_field(via)
    parent = key.related_model
    theirs = tuple(parent._meta.concrete_fields)
    columns += "".join(f", b.{q(f.column)}" for f in theirs)
    return (f"SELECT {columns} FROM {q(model._meta.db_table)} a "
            f"LEFT JOIN {q(parent._meta.db_table)} b ON b.{q(key.target_field.column)} = a.{q(key.column)}"), own, theirs


@functools.cache
def _needing(fields: tuple[Any, ...], vendor: str) -> tuple[int, ...]:
    """The positions of the fields whose values the ORM converts on this kind of database (on PostgreSQL
    only the JSON ones; on SQLite the dates and booleans too)."""
    return tuple(i for i, f in enumerate(fields)
                 if connection.ops.get_db_converters(f.cached_col) or f.get_db_converters(connection))


def _converted(fields: tuple[Any, ...], values: tuple[Any, ...]) -> tuple[Any, ...]:
    out = list(values)
    for i in _needing(fields, connection.vendor):
        col = fields[i].cached_col
        for convert in (*connection.ops.get_db_converters(col), *fields[i].get_db_converters(connection)):
            out[i] = convert(out[i], col, connection)
    return tuple(out)


def select(model: type[models.Model], where: str, params: list[Any]) -> list[Any]:
    """The ``model`` instances ``where`` selects (SQL after ``WHERE``, ``ORDER BY`` included, naming the
    model's columns ``a.…``): one query."""
    return select_with_parent(model, None, where, params)


def select_with_parent(model: type[models.Model], via: str | None, where: str, params: list[Any]) -> list[Any]:
    """``select``, each instance with the one its foreign key ``via`` names (the parent's columns are
    ``b.…`` in ``where``), or ``None`` where that key is empty: one query."""
    sql, own, theirs = _select(model, via)
    with connection.cursor() as cur:
        cur.execute(f"{sql} WHERE {where}", params)
        found = cur.fetchall()
    alias, n = connection.alias, len(own)
    own_names = [f.attname for f in own]
    out = [model.from_db(alias, own_names, _converted(own, row[:n])) for row in found]
    if via is not None:
        related = model._meta.get_field(via).related_model
        their_names = [f.attname for f in theirs]
        pk = next(i for i, f in enumerate(theirs) if f.primary_key)
        for instance, row in zip(out, found, strict=True):
            setattr(instance, via, None if row[n + pk] is None else
                    related.from_db(alias, their_names, _converted(theirs, row[n:])))
    return out


def with_parent(model: type[models.Model], pk: Any, via: str) -> Any:
    """The ``model`` instance of primary key ``pk`` with the one its foreign key ``via`` names, or
    ``None`` where there is no such row."""
    q = connection.ops.quote_name
    found = select_with_parent(model, via, f"a.{q(model._meta.pk.column)} = %s", [pk])
    return found[0] if found else None


def with_parent_or_404(model: type[models.Model], pk: Any, via: str) -> Any:
    """``with_parent``, or ``Http404`` where there is no such row (as ``get_object_or_404``)."""
    instance = with_parent(model, pk, via)
    if instance is None:
        raise Http404(f"No {model._meta.object_name} matches the given query.")
    return instance
