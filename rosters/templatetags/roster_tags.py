"""Template helpers of the roster builder."""
from django import template
from django.utils.translation import get_language

register = template.Library()


@register.filter
def loc(obj, field: str = "name"):
    """``obj.<field>_ru`` or ``obj.<field>_en`` in the visitor's language."""
    suffix = "ru" if (get_language() or "ru").startswith("ru") else "en"
    return getattr(obj, f"{field}_{suffix}", "")
