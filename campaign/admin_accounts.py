"""Accounts in the admin: the game master manages the club's game, not its accounts.

The game master is staff (he uses the admin) and may view and change users, so
that he can correct a player's first and last name or active flag. Without this module
Django's stock ``UserAdmin`` would let him tick "Superuser status" on himself,
grant staff status, groups or permissions, and set anyone's password. Here only
a superuser does any of that, whatever permissions a group carries, on every
admin path: the user form (add and change), the password form, the group admin
and the API token admin. Nor does he change another user's
login name or e-mail (a password reset goes to that e-mail: he would take the
account over), and he never edits another staff account at all.
"""
from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, User
from django.core.exceptions import PermissionDenied
from rest_framework.authtoken.admin import TokenAdmin
from rest_framework.authtoken.models import TokenProxy

# What decides who may do what: only a superuser grants or revokes it.
PRIVILEGE_FIELDS = ("is_superuser", "is_staff", "groups", "user_permissions")
# What identifies the account and receives its password reset: its owner's, or a superuser's.
ACCOUNT_FIELDS = ("username", "email")


def _superuser(request) -> bool:
    return bool(request.user.is_active and request.user.is_superuser)


class ShtabUserAdmin(UserAdmin):
    def get_readonly_fields(self, request, obj=None):
        fields = tuple(super().get_readonly_fields(request, obj))
        if _superuser(request):
            return fields
        if obj is not None and obj.pk != request.user.pk:
            fields = (*fields, *ACCOUNT_FIELDS)
        return (*fields, *PRIVILEGE_FIELDS)

    def has_change_permission(self, request, obj=None):
        if not super().has_change_permission(request, obj):
            return False
        if obj is None or _superuser(request) or obj.pk == request.user.pk:
            return True
        return not (obj.is_staff or obj.is_superuser)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and (obj.is_staff or obj.is_superuser) and not _superuser(request):
            return False
        return super().has_delete_permission(request, obj)

    def user_change_password(self, request, id, form_url=""):  # noqa: A002 - Django's signature
        # Setting a password without knowing the old one takes the account over:
        # superusers only. Everyone changes his own at /admin/password_change/.
        if not _superuser(request):
            raise PermissionDenied
        return super().user_change_password(request, id, form_url)


class ShtabGroupAdmin(GroupAdmin):
    """Groups are the roles (campaign.roles): their permissions are a superuser's business."""

    def has_add_permission(self, request):
        return _superuser(request)

    def has_change_permission(self, request, obj=None):
        return _superuser(request)

    def has_delete_permission(self, request, obj=None):
        return _superuser(request)


def _register(model, admin_class) -> None:
    if admin.site.is_registered(model):
        admin.site.unregister(model)
    admin.site.register(model, admin_class)


_register(User, ShtabUserAdmin)
_register(Group, ShtabGroupAdmin)


def _guard_token_admin() -> None:
    """An API token is a password: creating one for another user impersonates him."""
    class ShtabTokenAdmin(TokenAdmin):
        def has_add_permission(self, request):
            return _superuser(request)

        def has_change_permission(self, request, obj=None):
            return _superuser(request)

        def has_delete_permission(self, request, obj=None):
            return _superuser(request)

    _register(TokenProxy, ShtabTokenAdmin)


_guard_token_admin()
