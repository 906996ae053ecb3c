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

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from campaign.roles import is_game_master


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
