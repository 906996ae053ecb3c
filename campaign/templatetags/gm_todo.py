"""``{% game_master_todo as todo %}``: the admin index's to-do panel reads the
selector itself (the admin index view has no hook for extra context)."""
from django import template

from campaign import selectors

register = template.Library()


@register.simple_tag
def game_master_todo():
    return selectors.game_master_todo()
