"""Template helpers of the roster builder."""
from django import template
from django.utils.translation import get_language

register = template.Library()


@register.filter
def loc(obj, field: str = "name"):
    """``obj.<field>_ru`` or ``obj.<field>_en`` in the visitor's language."""
    suffix = "ru" if (get_language() or "ru").startswith("ru") else "en"
    return getattr(obj, f"{field}_{suffix}", "")


@register.filter
def class_name(infantry_class, nationality):
    """An officer class under the roster's national rank name (G-23), e.g.
    Feldwebel for a German sergeant; other classes by their own name."""
    language = "ru" if (get_language() or "ru").startswith("ru") else "en"
    if infantry_class.rank and nationality is not None:
        return nationality.rank_name(infantry_class.rank, language)
    return loc(infantry_class)
