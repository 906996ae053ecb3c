"""DRF's token authentication with the token's user kept a few seconds in a
per-process cache (Django's local-memory cache, alias ``tokens``).

Every token request read the token and its user (one query) and, for a
player, his groups (another); a battle table's appends come every few
seconds from the same few tokens. ``SHTAB["TOKEN_CACHE_SECONDS"]`` (5; 0
turns the cache off) bounds how long a change made in *another* process (a
token deleted, a user deactivated or moved out of the game masters, in the
admin's process or a shell) may go unseen here; one saved through the ORM in
this process is seen at once (the signals below forget the entry).
"""
from __future__ import annotations

import functools
import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import caches
from django.db import connection
from django.db.models import BooleanField, DateTimeField
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from campaign.roles import is_game_master, known_groups


def _cache_key(token_key: str) -> str:
    return "token:" + hashlib.sha256(token_key.encode()).hexdigest()


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        seconds = settings.SHTAB["TOKEN_CACHE_SECONDS"]
        if not seconds:
            return super().authenticate_credentials(key)
        cache = caches["tokens"]
        found = cache.get(_cache_key(key))
        if found is not None:
            return found
        user, token = super().authenticate_credentials(key)  # unknown or inactive: refused, never cached
        is_game_master(user)  # reads his groups once, kept with him
        cache.set(_cache_key(key), (user, token), seconds)
        return user, token


def forget_tokens_of(user_id: Any) -> None:
    keys = [_cache_key(k) for k in Token.objects.filter(user_id=user_id).values_list("key", flat=True)]
    caches["tokens"].delete_many(keys)


@receiver(post_delete, sender=Token)
@receiver(post_save, sender=Token)
def _token_changed(sender: Any, instance: Token, **kwargs: Any) -> None:
    caches["tokens"].delete(_cache_key(instance.key))


@receiver(post_save, sender=get_user_model())
def _user_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    forget_tokens_of(instance.pk)


@receiver(m2m_changed, sender=get_user_model().groups.through)
def _groups_changed(sender: Any, instance: Any, reverse: bool, pk_set: Any, **kwargs: Any) -> None:
    if not reverse:
        forget_tokens_of(instance.pk)
    else:  # a group's members changed
        for user_id in pk_set or ():
            forget_tokens_of(user_id)


class SessionUserBackend(ModelBackend):
    """Django's ``ModelBackend``, but the user of a signed-in request (``get_user``, asked with every page and
    live request from the session's user id) is read with his role groups by one plain query: through the ORM
    that was a query for the user and another for his groups, 0.7 ms of the server's CPU a request, which the
    battle page's live requests pay three times an entry (bench/HISTORY.md, "Game night, eleventh session").
    His two dates (``last_login``, ``date_joined``) are read only if something asks for them."""

    def get_user(self, user_id: Any) -> Any:
        user = user_with_groups(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


@functools.cache  # (built once a process: it is asked with every signed-in request)
def _user_sql() -> tuple[str, tuple[Any, ...]]:
    User = get_user_model()  # noqa: N806 - a model class
    fields = tuple(f for f in User._meta.concrete_fields if not isinstance(f, DateTimeField))
    q = connection.ops.quote_name
    through = User.groups.through._meta
    group = through.get_field("group").related_model._meta
    columns = ", ".join(f"u.{q(f.column)}" for f in fields)
    return (f"SELECT {columns}, g.{q('name')} FROM {q(User._meta.db_table)} u "
            f"LEFT JOIN {q(through.db_table)} ug ON ug.{q(through.get_field('user').column)} = u.{q(User._meta.pk.column)} "
            f"LEFT JOIN {q(group.db_table)} g ON g.{q(group.pk.column)} = ug.{q(through.get_field('group').column)} "
            f"WHERE u.{q(User._meta.pk.column)} = %s"), fields


def user_with_groups(user_id: Any) -> Any:
    """The user ``user_id`` with his group names known (``campaign.roles.known_groups``), or ``None``: one
    query, a row per group."""
    User = get_user_model()  # noqa: N806 - a model class
    sql, fields = _user_sql()
    with connection.cursor() as cur:
        cur.execute(sql, [user_id])
        rows = cur.fetchall()
    if not rows:
        return None
    values = tuple(bool(v) if isinstance(f, BooleanField) else v for f, v in zip(fields, rows[0][:-1], strict=True))
    user = User.from_db(connection.alias, [f.attname for f in fields], values)
    known_groups(user, {r[-1] for r in rows if r[-1] is not None})
    return user
