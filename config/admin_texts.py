"""Django admin texts the game master reads in Russian, said so that our model names fit them.

Django's Russian catalogue puts a model's name, which we give in the nominative (``кампания``), after a verb
or before a masculine past tense: «Выберите кампания для изменения», «Добавить кампания», «Кампания «…» был
успешно изменен». Our catalogue (``config/locale``, which comes before the apps' own) says each of these so
that the name stands alone after a colon or in «объект типа «…»», as Django's own catalogue already does
for its related-object buttons: «Выбор для изменения: кампания», «Сохранено: кампания «Курская дуга»».

The application never imports this module: it names the messages for ``makemessages``, which keeps a
message in our catalogue only while our code names it (``COUNTED``: a message in plural forms).
``tests/test_admin_russian.py`` imports it, to check that each one is ours.
"""
from django.utils.translation import gettext_noop, ngettext_lazy

MESSAGES = (
    gettext_noop("Select %s to change"),
    gettext_noop("Select %s to view"),
    gettext_noop("Select %s"),
    gettext_noop("Add %s"),
    gettext_noop("Change %s"),
    gettext_noop("View %s"),
    gettext_noop("Add %(name)s"),
    gettext_noop("Add another %(verbose_name)s"),
    gettext_noop("Cannot delete %(name)s"),
    gettext_noop("Delete selected %(verbose_name_plural)s"),
    gettext_noop("Successfully deleted %(count)d %(items)s."),
    gettext_noop("The {name} “{obj}” was added successfully."),
    gettext_noop("The {name} “{obj}” was added successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may edit it again below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully."),
    gettext_noop("The %(name)s “%(obj)s” was deleted successfully."),
    gettext_noop("%(name)s with ID “%(key)s” doesn’t exist. Perhaps it was deleted?"),
    gettext_noop("Added {name} “{object}”."),
    gettext_noop("Changed {fields} for {name} “{object}”."),
    gettext_noop("Deleted {name} “{object}”."),
    gettext_noop("Deleting the %(object_name)s '%(escaped_object)s' would result in deleting related objects, but your account doesn't have permission to delete the following types of objects:"),
    gettext_noop("Deleting the %(object_name)s '%(escaped_object)s' would require deleting the following protected related objects:"),
    gettext_noop("Are you sure you want to delete the %(object_name)s \"%(escaped_object)s\"? All of the following related items will be deleted:"),
)
# The list's inline edits: "%(count)s" is the number the message is counted by.
COUNTED = (
    ngettext_lazy("%(count)s %(name)s was changed successfully.", "%(count)s %(name)s were changed successfully.",
                  "count"),
)
