"""``{% player_of character as name %}``: who plays the character, for a visitor who
may know it (selectors.player_names), else an empty string: pages never name an
account to a stranger (issue 27)."""
from django import template

from campaign import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def player_of(context, character) -> str:
    return selectors.player_names(viewer=context["user"], characters=[character]).get(character.pk, "")
